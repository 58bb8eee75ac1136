'use strict';
// `image-size/types/index` (require): image-size's list of types.
Object.defineProperty(exports, '__esModule', { value: true });
exports.types = require('../image-size.cjs').types;
