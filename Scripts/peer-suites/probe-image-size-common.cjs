'use strict';
// The runner's stand-in for probe-image-size's lib/common.js, which test_formats.js requires for
// one fixture helper: str2arr(text) (char codes, low byte) and str2arr(hex, 'hex') (bytes).
// The byte readers that test_common.js tests are probe-image-size's internals: not here.
exports.str2arr = function str2arr(text, format) {
  const bytes = [];
  if (format === 'hex') {
    for (let i = 0; i < text.length; i += 2) bytes.push(parseInt(text.slice(i, i + 2), 16));
  } else {
    for (let i = 0; i < text.length; i++) bytes.push(text.charCodeAt(i) & 0xFF);
  }
  return bytes;
};
