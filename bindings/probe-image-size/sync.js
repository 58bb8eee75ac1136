'use strict';
// probe-image-size's probe.sync(data): the result for bytes in memory (a Buffer, any typed
// array, an ArrayBuffer or an array of numbers), or null when they are no image it can read.
const { api } = require('./dist/imageprobe.cjs');
const { shape } = require('./lib/shape');

function bytesOf(src) {
  if (src instanceof Uint8Array) return src;
  if (ArrayBuffer.isView(src)) return new Uint8Array(src.buffer, src.byteOffset, src.byteLength);
  if (src instanceof ArrayBuffer) return new Uint8Array(src);
  if (Array.isArray(src)) return Uint8Array.from(src);
  throw new TypeError('probe.sync() takes a Buffer, a typed array, an ArrayBuffer or an array of bytes');
}

module.exports = function probeSync(src) {
  const bytes = bytesOf(src);
  let info;
  try {
    info = api.probeSync(bytes);
  } catch (error) {
    // The module failing (a trap: a bug) is not "no image": that is thrown.
    if (error?.name === 'ImageProbeError' && error.code !== 'trap' && error.code !== 'notLoaded') return null;
    throw error;
  }
  return shape(info, bytes, (offset, length) => (offset + length <= bytes.length ? bytes.subarray(offset, offset + length) : null));
};
