// imageprobe.mjs: an image's format, size and orientation from its first bytes, in any
// JavaScript runtime with WebAssembly (Node, Deno, browsers, edge workers). No dependencies.
// Loads imageprobe.wasm from beside this file (Scripts/build-c.sh builds both).
//
//   import { probe, probeStream, Scanner } from './imageprobe.mjs';
//   const info = await probeStream((await fetch(url)).body);   // cancels the body at the answer
//
// Results: { status: 'done', info } | { status: 'unsupported', error, message, detectedFormat }.
// `info` has the CLI's JSON names: format, mime, width, height, orientation, displayWidth,
// displayHeight, bitDepth, alpha, progressive, animated, frameCount, loopCount, duration,
// playbackDuration, preview, partial, partialReason (null when unknown), and bytesRead.

const FIELDS = ['needed', 'bytes_read', 'bytes_skipped', 'format', 'format_name', 'mime_type', 'width',
  'height', 'display_width', 'display_height', 'orientation', 'bit_depth', 'has_alpha', 'is_progressive',
  'is_animated', 'is_partial', 'frame_count', 'loop_count', 'duration_ms', 'playback_duration_ms',
  'eps_preview', 'error', 'message', 'detected_format', 'detected_format_name', 'fetch_error', 'http_status'];
const CHUNK = 64 * 1024;
// sizeof(imageprobe_options), rounded up.
const OPTIONS_SIZE = 48;
const MODES = { full: 0, dimensionsOnly: 1, animation: 2 };
const align = (value, to) => Math.ceil(value / to) * to;
const decoder = new TextDecoder();

let runtime;

/** Loads the module (once). `source`: a URL, bytes or a compiled WebAssembly.Module. */
export function load(source = new URL('./imageprobe.wasm', import.meta.url)) {
  runtime ??= (async () => {
    let module = source;
    if (!(module instanceof WebAssembly.Module)) {
      let bytes = source;
      if (source instanceof URL || typeof source === 'string') {
        const url = new URL(source);
        bytes = url.protocol === 'file:'
          ? await (await import('node:fs/promises')).readFile(url)
          : await (await fetch(url)).arrayBuffer();
      }
      module = await WebAssembly.compile(bytes);
    }
    return new Runtime(await WebAssembly.instantiate(module, {}));
  })();
  return runtime;
}

class Runtime {
  constructor(instance) {
    this.exports = instance.exports;
    this.offsets = Object.fromEntries(FIELDS.map((name, index) => [name, this.exports.imageprobe_info_layout(index)]));
    this.offsets.end = this.exports.imageprobe_info_layout(FIELDS.length);
    // One block per scanner: the scanner, its imageprobe_info, its options, a chunk buffer.
    this.scannerSize = align(this.exports.imageprobe_scanner_size(), 16);
    this.infoSize = align(this.offsets.end, 16);
    this.blockSize = this.scannerSize + this.infoSize + OPTIONS_SIZE + CHUNK;
    this.next = align(this.exports.__heap_base.value, 16);
    this.released = [];
  }

  allocate() {
    if (this.released.length) return this.released.pop();
    const at = this.next;
    this.next += this.blockSize;
    const memory = this.exports.memory;
    if (this.next > memory.buffer.byteLength) memory.grow(Math.ceil((this.next - memory.buffer.byteLength) / 65536));
    return at;
  }

  release(at) { this.released.push(at); }

  string(view, offset, size) {
    const bytes = new Uint8Array(view.buffer, view.byteOffset + offset, size);
    const end = bytes.indexOf(0);
    return decoder.decode(bytes.subarray(0, end < 0 ? size : end));
  }

  /** The status code and the imageprobe_info at `at`, as a result object. */
  result(code, at) {
    const o = this.offsets;
    const view = new DataView(this.exports.memory.buffer, at, this.offsets.end);
    const i64 = (name) => Number(view.getBigInt64(o[name], true));
    const u64 = (name) => Number(view.getBigUint64(o[name], true));
    const flag = (name) => { const value = view.getInt8(o[name]); return value < 0 ? null : value === 1; };
    const text = (name, next) => this.string(view, o[name], o[next] - o[name]);
    if (code === 0) return { status: 'needMore', needed: u64('needed') };
    if (code === 2) {
      const detected = view.getInt32(o.detected_format, true);
      return { status: 'unsupported', error: text('error', 'message'), message: text('message', 'detected_format'),
        detectedFormat: detected ? text('detected_format_name', 'fetch_error') : null,
        bytesRead: u64('bytes_read'), bytesSkipped: u64('bytes_skipped') };
    }
    const count = (name) => { const value = i64(name); return value < 0 ? null : value; };
    const double = (name) => { const value = view.getFloat64(o[name], true); return Number.isNaN(value) ? null : value; };
    const partial = view.getInt8(o.is_partial) === 1;
    const orientation = view.getInt32(o.orientation, true);
    const bitDepth = view.getInt32(o.bit_depth, true);
    return { status: 'done', info: {
      format: text('format_name', 'mime_type'), mime: text('mime_type', 'width'),
      width: i64('width'), height: i64('height'), orientation: orientation || null,
      displayWidth: i64('display_width'), displayHeight: i64('display_height'),
      bitDepth: bitDepth < 0 ? null : bitDepth, alpha: flag('has_alpha'), progressive: flag('is_progressive'),
      animated: flag('is_animated'), frameCount: count('frame_count'), loopCount: count('loop_count'),
      duration: double('duration_ms'), playbackDuration: double('playback_duration_ms'),
      preview: text('eps_preview', 'error') || null, partial,
      partialReason: partial ? text('error', 'message') : null,
      bytesRead: u64('bytes_read'), bytesSkipped: u64('bytes_skipped'),
    } };
  }
}

/** A push scanner over the WebAssembly module: create with `await Scanner.create(options)`. */
export class Scanner {
  /** options: { mode: 'full' | 'dimensionsOnly' | 'animation', maxBytes, inputLength, maxWidth, maxHeight,
      maxEntries, maxDepth } */
  static async create(options = {}) { return new Scanner(await load(), options); }

  constructor(runtime, options = {}) {
    this.runtime = runtime;
    this.block = runtime.allocate();
    this.info = this.block + runtime.scannerSize;
    this.options = this.info + runtime.infoSize;
    this.buffer = this.options + OPTIONS_SIZE;
    // imageprobe_options: zero means the default for every limit.
    new Uint8Array(runtime.exports.memory.buffer, this.options, OPTIONS_SIZE).fill(0);
    const view = new DataView(runtime.exports.memory.buffer, this.options, OPTIONS_SIZE);
    view.setInt32(0, MODES[options.mode ?? 'full'] ?? 0, true);
    view.setBigUint64(8, BigInt(options.maxBytes ?? 0), true);
    view.setBigUint64(16, BigInt(options.inputLength ?? 0), true);
    view.setUint32(24, options.maxWidth ?? 0, true);
    view.setUint32(28, options.maxHeight ?? 0, true);
    view.setUint32(32, options.maxEntries ?? 0, true);
    view.setUint32(36, options.maxDepth ?? 0, true);
    runtime.exports.imageprobe_init(this.block, this.options);
    this.last = runtime.result(runtime.exports.imageprobe_feed(this.block, 0, 0, this.info), this.info);
  }

  /** Feeds `bytes` (a Uint8Array) until the answer; returns the result (status 'needMore' too). */
  feed(bytes) {
    const { exports } = this.runtime;
    let offset = 0;
    while (this.last.status === 'needMore' && offset < bytes.length) {
      // What the scanner asks for (4 KiB at least, to keep calls few), not the whole input:
      // the bytes are copied into the module's memory, and most answers need a few dozen.
      const take = Math.min(CHUNK, bytes.length - offset, Math.max(this.last.needed, 4096));
      new Uint8Array(exports.memory.buffer, this.buffer, take).set(bytes.subarray(offset, offset + take));
      this.last = this.runtime.result(exports.imageprobe_feed(this.block, this.buffer, take, this.info), this.info);
      offset += take;
    }
    return this.last;
  }

  /** The input has ended: the final result. */
  finish() {
    if (this.last.status === 'needMore') {
      this.last = this.runtime.result(this.runtime.exports.imageprobe_finish(this.block, this.info), this.info);
    }
    return this.last;
  }

  /** Bytes the scanner doesn't need next: a reader that can seek jumps them and calls skip. */
  get pendingSkip() { return Number(this.runtime.exports.imageprobe_pending_skip(this.block)); }

  skip(count) {
    const passed = Number(this.runtime.exports.imageprobe_skip(this.block, BigInt(count)));
    this.last = this.runtime.result(this.runtime.exports.imageprobe_feed(this.block, 0, 0, this.info), this.info);
    return passed;
  }

  /** Returns the scanner's memory for reuse. */
  dispose() {
    if (this.block !== undefined) this.runtime.release(this.block);
    this.block = undefined;
  }
}

/** The answer for bytes in memory (a Uint8Array). */
export async function probe(bytes, options = {}) {
  const scanner = await Scanner.create({ inputLength: bytes.length, ...options });
  try {
    const result = scanner.feed(bytes);
    return result.status === 'needMore' ? scanner.finish() : result;
  } finally {
    scanner.dispose();
  }
}

/** Reads a WHATWG ReadableStream of bytes chunk by chunk, cancels it at the answer. */
export async function probeStream(stream, options = {}) {
  const scanner = await Scanner.create(options);
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return scanner.finish();
      const result = scanner.feed(value instanceof Uint8Array ? value : new Uint8Array(value));
      if (result.status !== 'needMore') {
        await reader.cancel();
        return result;
      }
    }
  } finally {
    reader.releaseLock();
    scanner.dispose();
  }
}
