'use strict';
// `image-size/types/interface` (require): types only (interface.d.ts).
Object.defineProperty(exports, '__esModule', { value: true });
