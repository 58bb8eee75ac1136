'use strict';
// `image-size` (Node, require): as image-size's CommonJS build, an ES module's exports
// (`__esModule`, `default`), so `import imageSize from 'image-size'` works from compiled code.
const { imageSize, disableTypes, types } = require('./image-size.cjs');

Object.defineProperty(exports, '__esModule', { value: true });
exports.default = imageSize;
exports.imageSize = imageSize;
exports.disableTypes = disableTypes;
exports.types = types;
