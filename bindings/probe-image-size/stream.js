'use strict';
// probe-image-size's probe(stream [, keepOpen]): reads a Node stream until the answer, then
// closes it (unless keepOpen). Rejects with ProbeError "unrecognized file format" (code
// ECONTENT) for what isn't an image it can read, and with the stream's own error when reading
// fails. Reading goes through imageprobe's probeStream; the first bytes are kept for the
// entries and units of the result, and for a HEIF whose Exif item lies a little further on,
// reading goes on to it (at most EXIF_REACH bytes past the answer).
const { api, compat } = require('./dist/imageprobe.cjs');
const { ProbeError } = require('./lib/common');
const { shape, exifLocation, HEAD_SIZE } = require('./lib/shape');

/** How far past the answer a stream is read for a HEIF's Exif item. */
const EXIF_REACH = 1024 * 1024;

/** The stream's chunks, as an iterator that closes it on return() unless it is kept open. */
function chunksOf(src, keepOpen) {
  if (typeof src.iterator === 'function') return src.iterator({ destroyOnReturn: !keepOpen });
  if (!keepOpen && typeof src[Symbol.asyncIterator] === 'function') return src[Symbol.asyncIterator]();
  // An older EventEmitter stream: 'data', 'end', 'error'.
  const queue = [];
  let ended = false;
  let failure = null;
  let wake = null;
  const onData = (chunk) => { queue.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk); src.pause?.(); wake?.(); };
  const onEnd = () => { ended = true; wake?.(); };
  const onError = (error) => { failure = error; wake?.(); };
  src.on('data', onData);
  src.on('end', onEnd);
  src.on('error', onError);
  const detach = () => {
    src.removeListener('data', onData);
    src.removeListener('end', onEnd);
    src.removeListener('error', onError);
  };
  return {
    async next() {
      while (!queue.length && !ended && !failure) {
        src.resume?.();
        await new Promise((resolve) => { wake = resolve; });
        wake = null;
      }
      if (queue.length) return { done: false, value: queue.shift() };
      detach();
      if (failure) throw failure;
      return { done: true, value: undefined };
    },
    async return() {
      detach();
      if (!keepOpen) src.destroy?.();
      return { done: true, value: undefined };
    },
  };
}

module.exports = async function probeStream(src, keepOpen) {
  const chunks = chunksOf(src, Boolean(keepOpen));
  const head = new Uint8Array(HEAD_SIZE);
  let position = 0;
  let ended = false;
  const record = (chunk) => {
    const bytes = chunk instanceof Uint8Array ? chunk : typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (position < HEAD_SIZE && bytes instanceof Uint8Array) head.set(bytes.subarray(0, HEAD_SIZE - position), position);
    position += bytes.length ?? 0;
    return bytes;
  };
  // What probeStream reads: the chunks, recorded; its return() at the answer leaves the stream to us.
  const recorded = {
    [Symbol.asyncIterator]() { return this; },
    async next() {
      const step = await chunks.next();
      if (step.done) ended = true; else step.value = record(step.value);
      return step;
    },
    async return() { return { done: true, value: undefined }; },
  };
  try {
    let info;
    try {
      info = await api.probeStream(recorded);
    } catch (error) {
      if (error?.name !== 'ImageProbeError') throw error;
      if (error.code === 'io' && error.cause) throw error.cause;
      if (error.code === 'trap') throw error;
      throw new ProbeError('unrecognized file format', 'ECONTENT', undefined, { cause: error });
    }
    // The core may answer before a HEIF's `meta` box ends (the rest lists other items, the Exif
    // item): read on to its end, within the first bytes.
    const readTo = async (end) => {
      while (position < end && !ended) {
        const step = await chunks.next();
        if (step.done) ended = true; else record(step.value);
      }
    };
    if (info.format === 'heif' || info.format === 'avif') {
      const metaEnd = compat.heifMetaEnd(head.subarray(0, Math.min(position, HEAD_SIZE)));
      if (metaEnd !== null && metaEnd <= HEAD_SIZE) await readTo(metaEnd);
    }
    let item = null;
    const exif = exifLocation(info, head.subarray(0, Math.min(position, HEAD_SIZE)));
    if (exif && exif.length <= HEAD_SIZE) {
      const end = exif.offset + exif.length;
      if (end <= HEAD_SIZE) {
        // In the first bytes: read on (recording) to its end, if the stream isn't there yet.
        await readTo(end);
        if (position >= end) item = head.subarray(exif.offset, end);
      } else if (!ended && exif.offset >= position && end <= position + EXIF_REACH) {
        item = await readWindow(chunks, position, exif.offset, exif.length);
      }
    }
    const read = head.subarray(0, Math.min(position, HEAD_SIZE));
    const result = shape(info, read, (offset, length) => (item && offset === exif.offset && length === exif.length ? item : null));
    if (!result) throw new ProbeError('unrecognized file format', 'ECONTENT');
    return result;
  } finally {
    Promise.resolve().then(() => chunks.return?.()).catch(() => {});
  }
};

/** Reads on from `position` and returns the bytes [offset, offset + length), or null at the end. */
async function readWindow(chunks, position, offset, length) {
  const window = new Uint8Array(length);
  let filled = 0;
  while (filled < length) {
    const step = await chunks.next();
    if (step.done) return null;
    const bytes = typeof step.value === 'string' ? Buffer.from(step.value) : step.value;
    const start = position;
    position += bytes.length;
    if (position <= offset) continue;
    const from = Math.max(0, offset + filled - start);
    const take = bytes.subarray(from, from + (length - filled));
    window.set(take, filled);
    filled += take.length;
  }
  return window;
}
