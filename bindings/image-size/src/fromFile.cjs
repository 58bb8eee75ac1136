'use strict';
// `image-size/fromFile` (Node, require).
const { imageSizeFromFile, setConcurrency } = require('./image-size.cjs');

Object.defineProperty(exports, '__esModule', { value: true });
exports.imageSizeFromFile = imageSizeFromFile;
exports.setConcurrency = setConcurrency;
