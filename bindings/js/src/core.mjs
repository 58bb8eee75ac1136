// core.mjs: the platform-neutral engine of the imageprobe package: the WebAssembly module's
// C interface (Sources/CImageProbe/include/imageprobe.h) as a Scanner, probe, probeStream and a
// probeURL driven by the core's range planner. No `node:` import here: Node's own parts (files,
// reading the module from a file: URL) come in through a `host` (node-host.mjs).
import { INFO_FIELDS, OPTIONS_FIELDS, PLANNER_OPTIONS_FIELDS, PLAN_REQUEST_FIELDS } from './fields.mjs';

// imageprobe.h's numbers.
const NEED_MORE = 0, DONE = 1, UNSUPPORTED = 2, PLAN_SEND = 3, PLAN_NOT_MODIFIED = 4;
const BODY_COMPLETE = 0, BODY_STOPPED = 1, BODY_CLOSED = 2;
/** The classes of a transport's failure (imageprobe_planner_fail): the planner gives each its code. */
export const FAIL = { timeout: 0, limit: 1, connection: 2, invalidResponse: 3, forbiddenAddress: 4, cancelled: 5 };
const TEXT_URL = 0, TEXT_HEADERS = 1, TEXT_USER_AGENT = 4, TEXT_ENTITY_TAG = 5, TEXT_LAST_MODIFIED = 6;
/** imageprobe_planner_text's texts, for a socket transport. */
export const TEXT = { url: 0, headers: 1, requestHead: 2, host: 3 };
/** imageprobe_planner_wire's answers. */
export const WIRE = { more: 0, ended: 1, endedReusable: 2 };
const MODES = { full: 0, dimensionsOnly: 1, animation: 2 };

/** Bytes copied into the module per call: the size of the one input area. */
const INPUT_SIZE = 64 * 1024;
/** As the Swift command reads files (SPEC.md §4): 64 KiB reads; skips of 64 KiB or more jumped. */
export const READ_SIZE = 64 * 1024;
const SEEK_THRESHOLD = 64n * 1024n;
const INT64_MAX = (1n << 63n) - 1n;
const U64_MAX = (1n << 64n) - 1n;
const EMPTY = new Uint8Array(0);
/** Scanner's lifetime for a probe run to its answer without a pause (probeSync). */
const TRANSIENT = Symbol('transient');
const decoder = new TextDecoder();
const encoder = new TextEncoder();
const align16 = (value) => (value + 15) & ~15;

/** A count as a number when exact, a BigInt above 2^53 (never negative). */
export const count = (value) => (value <= 9007199254740991n ? Number(value) : value);

/** Every failure of the package: `code` is the Swift command's JSON `error` (SPEC.md §4). */
export class ImageProbeError extends Error {
  constructor(code, message, details = undefined) {
    super(message, details && 'cause' in details ? { cause: details.cause } : undefined);
    this.name = 'ImageProbeError';
    this.code = code;
    this.detectedFormat = null;
    if (details) {
      for (const key of Object.keys(details)) if (key !== 'cause') this[key] = details[key];
    }
  }
}

/** A chunk as a Uint8Array over the same bytes: any ArrayBufferView, an ArrayBuffer. */
export function byteView(chunk, what = 'chunk') {
  if (chunk instanceof Uint8Array) return chunk;
  if (ArrayBuffer.isView(chunk)) return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  if (chunk instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && chunk instanceof SharedArrayBuffer)) {
    return new Uint8Array(chunk);
  }
  const shown = chunk === null ? 'null' : typeof chunk === 'object' ? (chunk.constructor?.name ?? 'object') : typeof chunk;
  throw new TypeError(`imageprobe: a ${what} must be a Uint8Array, Buffer, another ArrayBufferView or an ArrayBuffer, not ${shown}`);
}

/** A non-negative integer below 2^64 (number or BigInt), as a BigInt; RangeError otherwise. */
function u64(value, name) {
  if (typeof value === 'bigint') {
    if (value >= 0n && value <= U64_MAX) return value;
  } else if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) {
    return BigInt(value);
  }
  throw new RangeError(`imageprobe: ${name} must be a non-negative integer below 2^64, not ${String(value)}`);
}

function u32(value, name) {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 0xFFFFFFFF) return value;
  throw new RangeError(`imageprobe: ${name} must be an integer from 0 to 2^32 - 1, not ${String(value)}`);
}

/** Offsets of a struct's fields and its size, from the module's `imageprobe_*_layout`. */
function layout(exports, struct, names) {
  const read = exports[`imageprobe_${struct}_layout`];
  const offsets = {};
  names.forEach((name, index) => { offsets[name] = read(index); });
  const size = read(names.length);
  const last = names.length ? offsets[names[names.length - 1]] : -1;
  if (!(size > last) || read(names.length + 1) !== 0) {
    throw new Error(`imageprobe: the WebAssembly module's imageprobe_${struct} does not have the ${names.length} fields ` +
      'that src/fields.mjs lists: add the new fields there (one line each)');
  }
  return { offsets, size };
}

/**
 * Reads one field of `imageprobe_info` as the table's kind says. `at(name)`: another field's
 * offset, for the kinds that read two fields (cicp with has_cicp, dpi with dpi_y).
 */
function fieldReader(kind, offset, size, at) {
  switch (kind) {
    case 'u64': return (m) => count(m.view.getBigUint64(offset, true));
    case 'i64': return (m) => Number(m.view.getBigInt64(offset, true));
    case 'i64?': return (m) => { const v = m.view.getBigInt64(offset, true); return v < 0n ? null : Number(v); };
    case 'i32': return (m) => m.view.getInt32(offset, true);
    case 'i32?': return (m) => { const v = m.view.getInt32(offset, true); return v < 0 ? null : v; };
    case 'i32?0': return (m) => { const v = m.view.getInt32(offset, true); return v <= 0 ? null : v; };
    case 'tri': return (m) => { const v = m.view.getInt8(offset); return v < 0 ? null : v === 1; };
    case 'bool': return (m) => m.view.getInt8(offset) === 1;
    case 'u8': return (m) => m.view.getUint8(offset);
    case 'cicp': {
      const flag = at('has_cicp');
      return (m) => (m.view.getUint8(flag) === 1
        ? [m.view.getUint8(offset), m.view.getUint8(offset + 1), m.view.getUint8(offset + 2), m.view.getUint8(offset + 3) === 1]
        : null);
    }
    case 'dpi': {
      const y = at('dpi_y');
      return (m) => {
        const dpiX = m.view.getInt32(offset, true);
        const dpiY = m.view.getInt32(y, true);
        return dpiX > 0 && dpiY > 0 ? [dpiX, dpiY] : null;
      };
    }
    case 'f64?': return (m) => { const v = m.view.getFloat64(offset, true); return Number.isNaN(v) ? null : v; };
    case 'str': return (m) => m.string(offset, size);
    case 'str?': return (m) => m.string(offset, size) || null;
    default: throw new Error(`imageprobe: unknown field kind ${kind} in fields.mjs`);
  }
}

/**
 * One instance of the module, and the fixed work areas every call uses: a scanner slot, a
 * planner slot, the info, the options, the plan request and a 64 KiB input area. A Scanner's
 * (or a planner's) state lives in JavaScript between calls and is copied into its slot for each
 * call (it stays there while the same object is called again), so the module's memory never
 * grows with the number of scanners, and a scanner forgotten without dispose() is ordinary
 * garbage. After a trap (WebAssembly.RuntimeError) the instance is replaced: a trap doesn't
 * restore the module's stack pointer, so nothing of the old instance is used again.
 */
class Runtime {
  constructor(module) {
    this.module = module;
    this.generation = 0;
    this.instantiate(new WebAssembly.Instance(module, {}));
  }

  instantiate(instance) {
    const e = instance.exports;
    this.e = e;
    this.generation += 1;
    this.info = layout(e, 'info', INFO_FIELDS.map((row) => row[0]));
    this.options = layout(e, 'options', OPTIONS_FIELDS);
    this.plannerOptions = layout(e, 'planner_options', PLANNER_OPTIONS_FIELDS);
    this.request = layout(e, 'plan_request', PLAN_REQUEST_FIELDS);
    this.scannerSize = e.imageprobe_scanner_size();
    this.plannerSize = e.imageprobe_planner_size();
    let at = align16(e.__heap_base.value);
    const area = (size) => { const start = at; at = align16(at + size); return start; };
    this.SCANNER = area(this.scannerSize);
    this.PLANNER = area(this.plannerSize);
    this.INFO = area(this.info.size);
    this.OPTIONS = area(this.options.size);
    this.POPTIONS = area(this.plannerOptions.size);
    this.REQUEST = area(this.request.size);
    this.INPUT = area(INPUT_SIZE);
    const memory = e.memory;
    if (at > memory.buffer.byteLength) memory.grow(Math.ceil((at - memory.buffer.byteLength) / 65536));
    this.bytes = new Uint8Array(memory.buffer);
    this.view = new DataView(memory.buffer);
    this.userAgent = this.string(this.INPUT, e.imageprobe_planner_text(0, TEXT_USER_AGENT, this.INPUT, 256) + 1);
    this.residentScanner = null;
    this.residentPlanner = null;
    this.readers = INFO_FIELDS.map(([name, kind, js, group], index) => {
      const offset = this.INFO + this.info.offsets[name];
      const next = index + 1 < INFO_FIELDS.length ? this.info.offsets[INFO_FIELDS[index + 1][0]] : this.info.size;
      return { name, js, group, read: fieldReader(kind, offset, this.INFO + next - offset, (other) => this.INFO + this.info.offsets[other]) };
    });
    this.field = Object.fromEntries(this.readers.map((reader) => [reader.name, reader.read]));
    // A format's name and media type follow from its code: each decoded once.
    const formatCode = this.field.format;
    const byFormat = (read) => {
      const decoded = new Map();
      return (m) => {
        const code = formatCode(m);
        let text = decoded.get(code);
        if (text === undefined) decoded.set(code, text = read(m));
        return text;
      };
    };
    this.imageReaders = this.readers.filter((reader) => reader.group === 'image').map((reader) =>
      (reader.name === 'format_name' || reader.name === 'mime_type' ? { ...reader, read: byFormat(reader.read) } : reader));
  }

  /** A new instance after a trap (synchronously: the module is compiled already). */
  reset() {
    this.e = null;
    this.instantiate(new WebAssembly.Instance(this.module, {}));
  }

  string(offset, size) {
    if (this.bytes[offset] === 0) return '';
    const bytes = this.bytes.subarray(offset, offset + size);
    const end = bytes.indexOf(0);
    return decoder.decode(end < 0 ? bytes : bytes.subarray(0, end));
  }

  /**
   * Calls `body` with `owner`'s state in its slot (copied in unless it is there already), then
   * copies the state back out, so a trap in a later call can't lose it. A transient owner (a
   * probe that runs to its answer in one synchronous stretch, so no other owner can take the
   * slot in between) lives in the slot alone: its first call initialises it there. A trap
   * replaces the instance and becomes an ImageProbeError with code "trap".
   */
  call(owner, body) {
    if (!this.e) this.reset();
    const slot = owner.planner ? this.PLANNER : this.SCANNER;
    const key = owner.planner ? 'residentPlanner' : 'residentScanner';
    if (this[key] !== owner) {
      if (!owner.transient) this.bytes.set(owner.state, slot);
      this[key] = owner;
    }
    try {
      const result = body(this.e, slot);
      if (!owner.transient) owner.state.set(this.bytes.subarray(slot, slot + owner.state.length));
      return result;
    } catch (error) {
      if (error instanceof WebAssembly.RuntimeError) {
        try { this.reset(); } catch { this.e = null; }
        owner.broken = true;
        throw new ImageProbeError('trap', `the WebAssembly module trapped (${error.message}); ` +
          'it was instantiated afresh, and this scanner can no longer be used', { cause: error });
      }
      throw error;
    }
  }

  writeOptions(at, options, offsets) {
    const mode = options.mode ?? 'full';
    if (!(mode in MODES)) throw new TypeError(`imageprobe: mode must be "full", "dimensionsOnly" or "animation", not ${String(mode)}`);
    const view = this.view;
    view.setInt32(at + offsets.mode, MODES[mode], true);
    view.setBigUint64(at + offsets.max_bytes, options.maxBytes === undefined ? 0n : u64(options.maxBytes, 'maxBytes'), true);
    view.setBigUint64(at + offsets.input_length, options.inputLength === undefined ? 0n : u64(options.inputLength, 'inputLength'), true);
    view.setUint32(at + offsets.max_width, options.maxWidth === undefined ? 0 : u32(options.maxWidth, 'maxWidth'), true);
    view.setUint32(at + offsets.max_height, options.maxHeight === undefined ? 0 : u32(options.maxHeight, 'maxHeight'), true);
    view.setUint32(at + offsets.max_entries, options.maxEntries === undefined ? 0 : u32(options.maxEntries, 'maxEntries'), true);
    view.setUint32(at + offsets.max_depth, options.maxDepth === undefined ? 0 : u32(options.maxDepth, 'maxDepth'), true);
    view.setBigUint64(at + offsets.max_pixels, options.maxPixels === undefined ? 0n : u64(options.maxPixels, 'maxPixels'), true);
  }

  /** The image in the info area: the table's image fields, partialReason, then the counts. */
  readInfo() {
    const info = {};
    for (const { js, group, read } of this.imageReaders) info[js] = read(this);
    info.partialReason = info.partial ? this.field.error(this) : null;
    info.bytesRead = this.field.bytes_read(this);
    info.bytesSkipped = this.field.bytes_skipped(this);
    return info;
  }

  /**
   * The failure in the info area, as an ImageProbeError. A refused image (maxPixels:
   * "tooManyPixels") has its format and size filled in too: they come with the error as
   * format, width, height and frameCount.
   */
  readFailure() {
    const detected = this.field.detected_format(this);
    const details = {
      detectedFormat: detected ? this.field.detected_format_name(this) : null,
      bytesRead: this.field.bytes_read(this),
      bytesSkipped: this.field.bytes_skipped(this),
    };
    if (this.field.format(this) !== 0) {
      details.format = this.field.format_name(this);
      details.width = this.field.width(this);
      details.height = this.field.height(this);
      details.frameCount = this.field.frame_count(this);
    }
    return new ImageProbeError(this.field.error(this), this.field.message(this), details);
  }

  /** A scanner call's status code as a ScanResult. */
  result(code) {
    switch (code) {
      case NEED_MORE: return { status: 'needMore', needed: this.field.needed(this) };
      case DONE: return { status: 'done', info: this.readInfo() };
      case UNSUPPORTED: return { status: 'unsupported', error: this.readFailure() };
      default: throw new ImageProbeError('argument', this.field.message(this) || 'the scanner refused the call');
    }
  }
}

/** Yields to the event loop (a macrotask), so timers and I/O run between chunks. */
const yieldToEventLoop = () => new Promise((resolve) => {
  if (typeof setImmediate === 'function') setImmediate(resolve); else setTimeout(resolve, 0);
});
const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());

function cancelledError(signal) {
  return new ImageProbeError('cancelled', 'cancelled', { cause: signal?.reason });
}

/** Resolves after `ms`, or as soon as `signal` aborts. */
function pause(ms, signal) {
  return new Promise((resolve) => {
    const done = () => { clearTimeout(timer); signal?.removeEventListener?.('abort', done); resolve(); };
    const timer = setTimeout(done, ms);
    signal?.addEventListener?.('abort', done, { once: true });
  });
}

/** Resolves with `promise`, or rejects with "cancelled" as soon as `signal` aborts. */
function unlessAborted(promise, signal) {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(cancelledError(signal));
  return new Promise((resolve, reject) => {
    const abort = () => reject(cancelledError(signal));
    signal.addEventListener('abort', abort, { once: true });
    promise.then((value) => { signal.removeEventListener('abort', abort); resolve(value); },
      (error) => { signal.removeEventListener('abort', abort); reject(error); });
  });
}

/** Compiles the module from a URL, a path string, a Response, bytes or a compiled module. */
async function compile(source, host) {
  if (source instanceof WebAssembly.Module) return source;
  if (typeof Response !== 'undefined' && (source instanceof Response || source instanceof Promise)) {
    const response = await source;
    if (typeof WebAssembly.compileStreaming === 'function' &&
        (response.headers.get('content-type') ?? '').startsWith('application/wasm')) {
      return WebAssembly.compileStreaming(response);
    }
    return WebAssembly.compile(await response.arrayBuffer());
  }
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return WebAssembly.compile(source);
  if (source instanceof URL || typeof source === 'string') {
    const url = new URL(source, typeof location !== 'undefined' ? location.href : undefined);
    if (url.protocol === 'file:' && host?.readFile) return WebAssembly.compile(await host.readFile(url));
    const response = await fetch(url);
    if (!response.ok) throw new Error(`imageprobe: cannot load ${url.href}: HTTP ${response.status}`);
    return compile(response, host);
  }
  throw new TypeError('imageprobe: init() takes a URL, a path, a Response, bytes or a WebAssembly.Module');
}

/**
 * A seekable input (bytes in memory, a file) read as the Swift command reads files (SPEC.md §4):
 * 64 KiB reads, never more fed than the scanner asks for; a pending skip of 64 KiB or more is
 * jumped, shorter ones and skip bytes already read are passed with skip(), so the answers and
 * byte counts are the command's. A generator: it yields a BigInt position and takes the bytes
 * from there (up to 64 KiB; empty at the end), so the same steps run with synchronous reads
 * (probeSync, probeFileSync) and asynchronous ones (probe, probeFile).
 */
function* seekable(scanner) {
  let position = 0n;
  let buffer = EMPTY;
  let start = 0;
  let skippedAfterReading = 0n;
  let result = scanner.result;
  while (result.status === 'needMore') {
    const pending = scanner.pendingSkipBig();
    if (pending > 0n && start < buffer.length) {
      const passed = scanner.skipBig(pending < BigInt(buffer.length - start) ? pending : BigInt(buffer.length - start));
      skippedAfterReading += passed;
      start += Number(passed);
      result = scanner.result;
      continue;
    }
    if (pending >= SEEK_THRESHOLD && start === buffer.length) {
      scanner.skipBig(pending);
      if (position + pending > INT64_MAX) {
        // Past any offset a file can have: the input ends before the header does.
        result = scanner.finish();
        break;
      }
      position += pending;
      result = scanner.result;
      continue;
    }
    if (start === buffer.length) {
      const got = yield position;
      if (got.length === 0) {
        result = scanner.finish();
        break;
      }
      buffer = got;
      position += BigInt(got.length);
      start = 0;
    }
    const needed = result.needed;
    const take = typeof needed === 'bigint' || needed > buffer.length - start ? buffer.length - start : needed;
    result = scanner.feed(buffer.subarray(start, start + take));
    start += take;
  }
  if (skippedAfterReading > 0n) {
    // Skip bytes that were read anyway count as read, as the command reports them.
    const counts = result.status === 'done' ? result.info : result.status === 'unsupported' ? result.error : null;
    if (counts) {
      counts.bytesRead = count(BigInt(counts.bytesRead) + skippedAfterReading);
      counts.bytesSkipped = count(BigInt(counts.bytesSkipped) - skippedAfterReading);
    }
  }
  return result;
}

/** Runs the seekable reading with `read(position)` returning bytes or a promise of them. */
export async function driveSeekable(scanner, read) {
  const steps = seekable(scanner);
  let step = steps.next();
  while (!step.done) step = steps.next(await read(step.value));
  return step.value;
}

export function driveSeekableSync(scanner, read) {
  const steps = seekable(scanner);
  let step = steps.next();
  while (!step.done) step = steps.next(read(step.value));
  return step.value;
}

// --- probeURL's cache (SPEC.md §6.7): the entries' format, the same as Python's URLCache ----
const CACHE_FORMAT = 1;
const DEFAULT_FRESHNESS = 86_400_000;
/** An answer's fields that are the probe's costs or its URL, never stored. */
const NOT_STORED = new Set(['bytesRead', 'bytesSkipped', 'bytesTransferred', 'requests', 'fromCache', 'url']);
/** Bytes as a Latin-1 string and back: validators are octets (RFC 9110 §8.8.3), kept as such. */
const latin1 = (bytes) => String.fromCharCode(...bytes);
const latin1Bytes = (text) => Uint8Array.from(String(text), (c) => (c.charCodeAt(0) < 256 ? c.charCodeAt(0) : 0x3F));

/** The text an entry is named by and holds: everything that changes the answer. */
function cacheKey(url, { mode = 'full', maxBytes = 16 * 1024 * 1024, maxPixels = 0 }) {
  return `imageprobe-url-cache ${CACHE_FORMAT}\n${mode}\n${maxBytes}\n${maxPixels}\n${url}`;
}

/** The stored record when it is an entry of `key`; undefined for anything else (probed, rewritten). */
function cacheEntry(record, key) {
  if (!record || typeof record !== 'object' || record.imageprobe !== CACHE_FORMAT || record.key !== key) return undefined;
  const { answer, checked } = record;
  if (!answer || typeof answer !== 'object' || Array.isArray(answer) || typeof answer.format !== 'string' ||
      !Number.isInteger(answer.width) || !Number.isInteger(answer.height) || typeof checked !== 'number' || !Number.isFinite(checked)) {
    return undefined;
  }
  const freshness = Number.isInteger(record.freshness) && record.freshness >= 0 ? record.freshness : null;
  return { ...record, freshness, entityTag: String(record.entityTag ?? ''), lastModified: String(record.lastModified ?? '') };
}

/** Whether an entry is younger than its response's max-age, or the cache's freshness (ms) without one. */
function cacheFresh(entry, freshness) {
  const age = Date.now() / 1000 - entry.checked;
  return age >= 0 && age < (entry.freshness ?? freshness / 1000);
}

/** The answer in an entry, with these costs: every image field, null where the entry has none. */
function cachedAnswer(entry, costs, url) {
  const info = {};
  for (const [, , name, group] of INFO_FIELDS) if (group === 'image') info[name] = name === 'partial' ? false : null;
  Object.assign(info, entry.answer, { partialReason: null });
  return { ...info, ...costs, fromCache: true, url: typeof entry.url === 'string' ? entry.url : url };
}

/** An entry for `answer` (the command's JSON fields, costs left out), checked now. */
function cacheRecord(key, answer, url, validators) {
  const stored = {};
  for (const [name, value] of Object.entries(answer)) {
    if (NOT_STORED.has(name) || (value === null && name !== 'orientation') || (name === 'partial' && !value)) continue;
    stored[name] = value;
  }
  return { imageprobe: CACHE_FORMAT, key, url, checked: Date.now() / 1000, ...validators, answer: stored };
}

function settle(result) {
  if (result.status === 'done') return result.info;
  throw result.error;
}

const noop = () => {};

/** The status line and header fields as bytes on the wire (HTTP/1.1), as fetch() shows them. */
function headBytes(response) {
  let total = `HTTP/1.1 ${response.status} ${response.statusText ?? ''}\r\n`.length + 2;
  for (const [name, value] of response.headers) total += encoder.encode(`${name}: ${value}\r\n`).length;
  return total;
}

/**
 * The transport where only fetch() is (browsers, Workers, Deno Deploy): the planner's request
 * sent with fetch(), the head's fields and the body's bytes handed back. fetch() hides the wire:
 * a head counts as its status line and `name: value\r\n` per field, a body as its bytes (chunk
 * framing can't be seen), and the per-request deadline bounds the rest (README).
 */
function fetchTransport(fetcher, extraHeaders) {
  // Browsers hide a redirect's Location from fetch() (an opaque redirect): there, redirects are
  // followed by fetch() itself, each time.
  let redirect = 'manual';
  return {
    async exchange(planner, until, signal) {
      const headers = new Headers(extraHeaders);
      for (const line of planner.text(TEXT_HEADERS).split('\r\n')) {
        const colon = line.indexOf(':');
        if (colon > 0) headers.set(line.slice(0, colon), line.slice(colon + 1).trim());
      }
      const controller = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => { timedOut = true; controller.abort(); }, Math.max(1, until - now()));
      const abort = () => controller.abort();
      signal?.addEventListener('abort', abort, { once: true });
      const failure = (error) => {
        if (signal?.aborted) return { kind: FAIL.cancelled, detail: '' };
        if (timedOut) return { kind: FAIL.timeout, detail: '' };
        const cause = error?.cause ?? error;
        return { kind: FAIL.connection, detail: String(cause?.message ?? cause) };
      };
      let reader = null;
      try {
        const url = planner.text(TEXT_URL);
        let response;
        try {
          response = await fetcher(url, { headers, signal: controller.signal, redirect, cache: 'no-store' });
          if (response.type === 'opaqueredirect' && redirect === 'manual') {
            redirect = 'follow';
            response = await fetcher(url, { headers, signal: controller.signal, redirect, cache: 'no-store' });
          }
        } catch (error) {
          throw failure(error);
        }
        if (!planner.received(headBytes(response))) throw { kind: FAIL.limit, detail: '' };
        for (const [name, value] of response.headers) planner.field(name, value);
        if (!planner.head(response.status)) return planner.end(BODY_STOPPED);
        if (!response.body) return planner.end(BODY_COMPLETE);
        reader = response.body.getReader();
        for (;;) {
          let step;
          try {
            step = await reader.read();
          } catch (error) {
            if (signal?.aborted || timedOut) throw failure(error);
            reader = null;
            return planner.end(BODY_CLOSED);
          }
          if (step.done) {
            reader = null;
            return planner.end(BODY_COMPLETE);
          }
          const chunk = byteView(step.value);
          const within = planner.received(chunk.length);
          if (!planner.body(chunk) || !within) return planner.end(BODY_STOPPED);
        }
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener('abort', abort);
        // The rest of the body is not read: the transfer stops here, its connection with it.
        if (reader) {
          Promise.resolve().then(() => reader.cancel()).catch(noop);
          controller.abort();
        }
      }
    },
    close() {},
  };
}

/**
 * The package's API over one module (the full one or the web one): `locate()` gives the module's
 * default URL, `host` the platform's own parts (Node: files and file: URLs).
 */
export function createApi({ locate, host = null }) {
  let runtime = null;
  let loading = null;

  /** Loads the module: from `source` (a URL, bytes, a Response or a compiled WebAssembly.Module) or beside the package. */
  async function init(source = undefined) {
    if (source === undefined) {
      if (runtime) return;
      if (loading) return loading;
    }
    const started = (async () => {
      const module = await compile(source ?? locate(), host);
      runtime = new Runtime(module);
    })();
    loading = started;
    try {
      await started;
    } finally {
      if (loading === started) loading = null;
    }
  }

  /** The runtime, loading it synchronously where the platform can (Node 20.16+). */
  function current() {
    if (runtime) return runtime;
    const module = host?.loadSync?.(locate());
    if (module) {
      runtime = new Runtime(module);
      return runtime;
    }
    throw new ImageProbeError('notLoaded', 'imageprobe: the WebAssembly module is not loaded yet: ' +
      'await init() (or Scanner.create()) before a synchronous call');
  }

  async function ready() {
    if (!runtime) {
      try { current(); } catch { await init(); }
    }
    return runtime;
  }

  /** A push scanner: feed it chunks in any split, it answers as soon as it can (SPEC.md §1). */
  class Scanner {
    /** Loads the module if needed, then makes a scanner. */
    static async create(options = {}) {
      await ready();
      return new Scanner(options);
    }

    constructor(options = {}, lifetime = undefined) {
      const rt = current();
      this.runtime = rt;
      // A transient scanner's state lives in the module's slot only (Runtime.call).
      this.transient = lifetime === TRANSIENT;
      this.state = this.transient ? EMPTY : new Uint8Array(rt.scannerSize);
      this.broken = false;
      this.last = rt.call(this, (e, slot) => {
        rt.bytes.fill(0, rt.OPTIONS, rt.OPTIONS + rt.options.size);
        rt.writeOptions(rt.OPTIONS, options, rt.options.offsets);
        e.imageprobe_init(slot, rt.OPTIONS);
        return rt.result(e.imageprobe_feed(slot, 0, 0, rt.INFO));
      });
    }

    /** The current result: needMore (with `needed`), done (with `info`) or unsupported (with `error`). */
    get result() { return this.last; }

    check() {
      if (!this.state) throw new ImageProbeError('disposed', 'imageprobe: this scanner was disposed');
      if (this.broken) throw new ImageProbeError('trap', 'imageprobe: this scanner trapped and can no longer be used');
    }

    /** Feeds `chunk` (any byte view) until the answer; returns the result. Answers are sticky. */
    feed(chunk) {
      const bytes = byteView(chunk);
      this.check();
      if (this.last.status !== 'needMore' || bytes.length === 0) return this.last;
      const rt = this.runtime;
      this.last = rt.call(this, (e, slot) => {
        let offset = 0;
        let code = NEED_MORE;
        while (code === NEED_MORE && offset < bytes.length) {
          const take = Math.min(INPUT_SIZE, bytes.length - offset);
          rt.bytes.set(bytes.subarray(offset, offset + take), rt.INPUT);
          code = e.imageprobe_feed(slot, rt.INPUT, take, rt.INFO);
          offset += take;
        }
        return rt.result(code);
      });
      return this.last;
    }

    /** The input has ended: the final result. */
    finish() {
      this.check();
      if (this.last.status !== 'needMore') return this.last;
      const rt = this.runtime;
      this.last = rt.call(this, (e, slot) => rt.result(e.imageprobe_finish(slot, rt.INFO)));
      return this.last;
    }

    pendingSkipBig() {
      this.check();
      return this.runtime.call(this, (e, slot) => BigInt.asUintN(64, e.imageprobe_pending_skip(slot)));
    }

    /** How many of the next bytes the scanner doesn't need: a number, or a BigInt above 2^53. */
    get pendingSkip() { return count(this.pendingSkipBig()); }

    skipBig(amount) {
      this.check();
      const rt = this.runtime;
      let passed = 0n;
      this.last = rt.call(this, (e, slot) => {
        passed = BigInt.asUintN(64, e.imageprobe_skip(slot, BigInt.asIntN(64, amount)));
        return rt.result(e.imageprobe_feed(slot, 0, 0, rt.INFO));
      });
      return passed;
    }

    /** Passes over up to `amount` bytes (a number or a BigInt; at most pendingSkip) without reading them; returns how many. */
    skip(amount) { return count(this.skipBig(u64(amount, 'the skip count'))); }

    /** Drops the scanner's state (about half a kilobyte of JavaScript memory; nothing in the module). */
    dispose() {
      if (this.runtime && this.runtime.residentScanner === this) this.runtime.residentScanner = null;
      this.state = null;
    }

    [Symbol.dispose ?? Symbol.for('Symbol.dispose')]() { this.dispose(); }

    // Tests only: makes the module trap in a call on this scanner (a read past its memory).
    [Symbol.for('imageprobe.testing.trap')]() {
      this.check();
      return this.runtime.call(this, (e, slot) => e.imageprobe_feed(slot, 0x7FFFFFF0, 0x1000, this.runtime.INFO));
    }
  }

  /** The URL probe's planner (SPEC.md §6.1) in the module, its state kept like a Scanner's. */
  class Planner {
    constructor(rt, options, url, held = null) {
      this.runtime = rt;
      this.planner = true;
      this.state = new Uint8Array(rt.plannerSize);
      const urlBytes = encoder.encode(url).subarray(0, INPUT_SIZE);
      rt.call(this, (e, slot) => {
        const at = rt.POPTIONS;
        const o = rt.plannerOptions.offsets;
        e.imageprobe_planner_defaults(at);
        rt.bytes.fill(0, at + o.scan, at + o.scan + rt.options.size);
        const { maxBytes, ...scan } = options;
        rt.writeOptions(at + o.scan, { ...scan, maxBytes, inputLength: undefined }, rt.options.offsets);
        if (maxBytes !== undefined) rt.view.setBigUint64(at + o.max_bytes, u64(maxBytes, 'maxBytes'), true);
        if (options.maxRequests !== undefined) rt.view.setUint32(at + o.max_requests, u32(options.maxRequests, 'maxRequests'), true);
        if (options.maxRedirects !== undefined) rt.view.setUint32(at + o.max_redirects, u32(options.maxRedirects, 'maxRedirects'), true);
        rt.bytes.set(urlBytes, rt.INPUT);
        e.imageprobe_planner_init(slot, at, rt.INPUT, urlBytes.length);
        if (held && (held.entityTag || held.lastModified)) {
          // The first request asks whether the held version is still current (a 304).
          const tag = latin1Bytes(held.entityTag).subarray(0, 1024);
          const date = latin1Bytes(held.lastModified).subarray(0, 1024);
          rt.bytes.set(tag, rt.INPUT);
          rt.bytes.set(date, rt.INPUT + tag.length);
          e.imageprobe_planner_revalidate(slot, rt.INPUT, tag.length, rt.INPUT + tag.length, date.length);
        }
      });
    }

    /** Once settled: the resource's validators and freshness, for the cache. */
    validators() {
      const rt = this.runtime;
      return rt.call(this, (e, slot) => {
        const text = (which) => {
          const length = e.imageprobe_planner_text(slot, which, rt.INPUT, INPUT_SIZE);
          return latin1(rt.bytes.subarray(rt.INPUT, rt.INPUT + Math.min(length, INPUT_SIZE - 1)));
        };
        const freshness = e.imageprobe_planner_freshness(slot);
        return { entityTag: text(TEXT_ENTITY_TAG), lastModified: text(TEXT_LAST_MODIFIED), freshness: freshness >= 0n ? Number(freshness) : null };
      });
    }

    next() {
      const rt = this.runtime;
      return rt.call(this, (e, slot) => {
        const code = e.imageprobe_planner_next(slot, rt.REQUEST, rt.INFO);
        const r = rt.request.offsets;
        switch (code) {
          case PLAN_SEND: return {
            kind: 'send',
            port: rt.view.getInt32(rt.REQUEST + r.port, true),
            secure: rt.view.getInt32(rt.REQUEST + r.secure, true) === 1,
            wait: rt.view.getInt32(rt.REQUEST + r.wait_seconds, true),
          };
          case DONE: return { kind: 'done', info: rt.readInfo() };
          case PLAN_NOT_MODIFIED: return { kind: 'notModified' };
          case UNSUPPORTED: {
            const error = rt.readFailure();
            error.fetchError = rt.field.fetch_error(rt);
            error.status = rt.field.http_status(rt) || null;
            return { kind: 'failed', error };
          }
          default: throw new ImageProbeError('argument', 'the URL planner refused the call');
        }
      });
    }

    /** A text of the request to send (TEXT_*). */
    text(which) {
      const rt = this.runtime;
      return rt.call(this, (e, slot) => {
        const length = e.imageprobe_planner_text(slot, which, rt.INPUT, INPUT_SIZE);
        return decoder.decode(rt.bytes.subarray(rt.INPUT, rt.INPUT + Math.min(length, INPUT_SIZE - 1)));
      });
    }

    /** Bytes off the socket: WIRE.more until the exchange ended. */
    wire(bytes) {
      const rt = this.runtime;
      return rt.call(this, (e, slot) => {
        let code = WIRE.more;
        for (let offset = 0; offset < bytes.length; offset += INPUT_SIZE) {
          const take = Math.min(INPUT_SIZE, bytes.length - offset);
          rt.bytes.set(bytes.subarray(offset, offset + take), rt.INPUT);
          code = e.imageprobe_planner_wire(slot, rt.INPUT, take);
          if (code !== WIRE.more && offset + take < bytes.length) {
            // Bytes after the exchange's end came off the wire too.
            rt.bytes.set(bytes.subarray(offset + take, Math.min(bytes.length, offset + take + INPUT_SIZE)), rt.INPUT);
            e.imageprobe_planner_received(slot, BigInt(bytes.length - offset - take));
            return WIRE.ended;
          }
        }
        return code;
      });
    }

    wireClosed() { this.runtime.call(this, (e, slot) => e.imageprobe_planner_wire_closed(slot)); }
    get drainable() { return this.runtime.call(this, (e, slot) => e.imageprobe_planner_drainable(slot)) === 1; }

    field(name, value) {
      const rt = this.runtime;
      const nameBytes = encoder.encode(name).subarray(0, INPUT_SIZE / 2);
      const valueBytes = encoder.encode(value).subarray(0, INPUT_SIZE / 2);
      rt.call(this, (e, slot) => {
        rt.bytes.set(nameBytes, rt.INPUT);
        rt.bytes.set(valueBytes, rt.INPUT + nameBytes.length);
        e.imageprobe_planner_header(slot, rt.INPUT, nameBytes.length, rt.INPUT + nameBytes.length, valueBytes.length);
      });
    }

    head(status) { return this.runtime.call(this, (e, slot) => e.imageprobe_planner_head(slot, status)) === 1; }

    /** A run of body bytes: false once the planner wants no more. */
    body(bytes) {
      const rt = this.runtime;
      return rt.call(this, (e, slot) => {
        for (let offset = 0; offset < bytes.length; offset += INPUT_SIZE) {
          const take = Math.min(INPUT_SIZE, bytes.length - offset);
          rt.bytes.set(bytes.subarray(offset, offset + take), rt.INPUT);
          if (e.imageprobe_planner_body(slot, rt.INPUT, take) !== 1) return false;
        }
        return true;
      });
    }

    received(amount) { return this.runtime.call(this, (e, slot) => e.imageprobe_planner_received(slot, BigInt(amount))) === 1; }
    end(how) { this.runtime.call(this, (e, slot) => e.imageprobe_planner_end(slot, how)); }
    fail(what) { this.runtime.call(this, (e, slot) => e.imageprobe_planner_fail(slot, what)); }
    get bytesReceived() { return count(this.runtime.call(this, (e, slot) => BigInt.asUintN(64, e.imageprobe_planner_bytes_received(slot)))); }
    get requests() { return this.runtime.call(this, (e, slot) => e.imageprobe_planner_requests(slot) >>> 0); }
  }

  /**
   * The core's address rule (SPEC.md §6.4) for a socket transport: `check(text)` gives why the
   * numeric address is refused, or null; `parse(text)` whether a host is a numeric address.
   */
  function addressRule(rt, allow) {
    const allowBytes = encoder.encode([].concat(allow ?? []).join(','));
    if (allowBytes.length > 2048) throw new RangeError('imageprobe: allow lists too many blocks');
    const MESSAGE = rt.INPUT + 4096;
    const parse = (text) => {
      const bytes = encoder.encode(String(text)).subarray(0, 1024);
      rt.bytes.set(bytes, rt.INPUT);
      const length = rt.e.imageprobe_address_parse(rt.INPUT, bytes.length, rt.INPUT + 2048);
      return length ? rt.bytes.slice(rt.INPUT + 2048, rt.INPUT + 2048 + length) : null;
    };
    const check = (text) => {
      const address = parse(text);
      if (!address) return `${text} is not an IP address; the address policy allows public addresses only`;
      rt.bytes.set(address, rt.INPUT);
      rt.bytes.set(allowBytes, rt.INPUT + 16);
      const refused = rt.e.imageprobe_address_check(rt.INPUT, address.length, rt.INPUT + 16, allowBytes.length, MESSAGE, 256);
      if (refused < 0) throw new RangeError(`imageprobe: allow: not a list of CIDR blocks: ${[].concat(allow).join(', ')}`);
      return refused === 0 ? null : `${text} ${rt.string(MESSAGE, 256)}`;
    };
    check('0.0.0.0');  // a bad allow list fails now, not at the first connection
    return { check, parse };
  }

  /** probeURL's file caches, one per directory and options, so each counts its own writes. */
  const fileCaches = new Map();

  const memoryReader = (bytes) => (position) => {
    const at = position > BigInt(bytes.length) ? bytes.length : Number(position);
    return bytes.subarray(at, Math.min(bytes.length, at + READ_SIZE));
  };

  /** The answer for bytes in memory, read as the command reads a file (same answers and counts). */
  async function probe(input, options = {}) {
    const bytes = byteView(input, 'probe() input');
    await ready();
    return probeSync(bytes, options);
  }

  /** probe() without a promise, once the module is loaded (always in Node; elsewhere after init()). */
  function probeSync(input, options = {}) {
    const view = byteView(input, 'probeSync() input');
    // A plain Uint8Array over the same bytes: a Node Buffer's subarray() costs several times more.
    const bytes = view.constructor === Uint8Array ? view : new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
    const scanner = new Scanner({ inputLength: bytes.length, ...options }, TRANSIENT);
    try {
      return settle(driveSeekableSync(scanner, memoryReader(bytes)));
    } finally {
      scanner.dispose();
    }
  }

  /**
   * Reads a WHATWG ReadableStream, a Node Readable or any async iterable of byte chunks until the
   * answer, then cancels it. Chunks that aren't byte views are a TypeError; the event loop gets a
   * turn at least every 10 ms, however the stream delivers (empty chunks included).
   */
  async function probeStream(source, options = {}) {
    const { signal, ...scanOptions } = options;
    let reader = null;
    let iterator = null;
    if (source && typeof source.getReader === 'function') reader = source.getReader();
    else if (source && typeof source[Symbol.asyncIterator] === 'function') iterator = source[Symbol.asyncIterator]();
    else throw new TypeError('imageprobe: probeStream() takes a ReadableStream, a Node Readable or an async iterable of byte chunks');
    let ended = false;
    let scanner = null;
    try {
      await ready();
      scanner = new Scanner(scanOptions);
      let turn = now();
      for (;;) {
        if (signal?.aborted) throw cancelledError(signal);
        let step;
        try {
          step = await unlessAborted(reader ? reader.read() : iterator.next(), signal);
        } catch (error) {
          if (error instanceof ImageProbeError) throw error;
          throw new ImageProbeError('io', `cannot read the stream: ${error?.message ?? error}`, { cause: error });
        }
        if (step.done) {
          ended = true;
          return settle(scanner.finish());
        }
        const result = scanner.feed(step.value);
        if (result.status !== 'needMore') return settle(result);
        if (now() - turn > 10) {
          await yieldToEventLoop();
          turn = now();
        }
      }
    } finally {
      scanner?.dispose();
      if (!ended) {
        // Cancelled at the answer (or on an error): nothing more is pulled.
        if (reader) reader.cancel(signal?.aborted ? signal.reason : undefined).catch(noop);
        else if (typeof iterator.return === 'function') Promise.resolve().then(() => iterator.return()).catch(noop);
      } else if (reader) {
        try { reader.releaseLock(); } catch { /* already released */ }
      }
    }
  }

  /**
   * Probes an http(s) URL with Range requests (SPEC.md §6.1). The core's planner owns every rule
   * of the exchange; this only carries it: in Node over sockets of its own (every byte off the
   * wire counted, `publicOnly` checked on each address), elsewhere over fetch().
   */
  async function probeURL(url, options = {}) {
    const { cache, ...probeOptions } = options;
    if (cache === undefined || cache === null) return probeNetwork(url, probeOptions, null);
    const store = cacheStore(cache);
    const key = cacheKey(String(url), probeOptions);
    let record;
    try { record = await store.get(key); } catch { record = undefined; }
    const entry = cacheEntry(record, key);
    if (entry && cacheFresh(entry, store.freshness ?? DEFAULT_FRESHNESS)) return cachedAnswer(entry, { bytesTransferred: 0, requests: 0 }, String(url));
    return probeNetwork(url, probeOptions, { store, key, entry });
  }

  /** probeURL's `cache`: a store (get, set), or in Node a directory (or { dir, freshness, maxEntries }). */
  function cacheStore(cache) {
    if (typeof cache?.get === 'function' && typeof cache?.set === 'function') return cache;
    const dir = typeof cache === 'string' || cache instanceof URL ? cache : cache?.dir;
    if (dir === undefined) throw new TypeError('imageprobe: cache must be a directory, { dir, freshness, maxEntries } or a store with get() and set()');
    if (!host?.fileCache) throw new ImageProbeError('unsupportedRuntime', 'imageprobe: a cache directory needs Node.js; elsewhere pass a store with get() and set()');
    const key = `${dir}\n${cache?.freshness}\n${cache?.maxEntries}`;
    let store = fileCaches.get(key);
    if (!store) fileCaches.set(key, store = host.fileCache(dir, typeof cache === 'object' && !(cache instanceof URL) ? cache : {}));
    return store;
  }

  /** Probes over the network; with `cached` ({ store, key, entry }), revalidates and stores. */
  async function probeNetwork(url, options, cached) {
    const { fetch: fetchOption, signal, headers: extraHeaders, timeout = 10_000, probeTimeout, redirect: _redirect,
      publicOnly = false, allow, ...plannerOptions } = options;
    if (!(typeof timeout === 'number' && timeout > 0)) throw new RangeError('imageprobe: timeout must be a positive number of milliseconds');
    const rt = await ready();
    // Sockets where the runtime has them and the module reads HTTP itself (the web module,
    // built for fetch-only runtimes, leaves that out).
    const useSockets = !fetchOption && host?.socketTransport && typeof rt.e.imageprobe_planner_wire === 'function';
    if (publicOnly && !useSockets) {
      throw new ImageProbeError('unsupportedRuntime', 'imageprobe: publicOnly needs Node\'s sockets: through fetch() the ' +
        'address connected to can\'t be checked', { bytesTransferred: 0, requests: 0 });
    }
    const fetcher = fetchOption ?? globalThis.fetch;
    if (!useSockets && typeof fetcher !== 'function') throw new TypeError('imageprobe: probeURL() needs fetch() (pass options.fetch)');
    const planner = new Planner(rt, plannerOptions, String(url), cached?.entry);
    const transport = useSockets
      ? host.socketTransport({
        rule: publicOnly ? addressRule(rt, allow) : null,
        policyKey: publicOnly ? `publicOnly ${[].concat(allow ?? []).join(',')}` : 'any',
        userAgent: rt.userAgent,
        headers: extraHeaders,
      })
      : fetchTransport(fetcher, extraHeaders);
    const deadline = now() + (probeTimeout ?? Math.max(30_000, timeout * 3));
    let detail = '';
    try {
      for (;;) {
        const step = planner.next();
        const costs = { bytesTransferred: planner.bytesReceived, requests: planner.requests };
        if (step.kind === 'notModified' && cached?.entry) {
          // The held answer stands: kept with the 304's validators and freshness.
          const record = cacheRecord(cached.key, cached.entry.answer, cached.entry.url ?? null, planner.validators());
          await storeQuietly(cached, record);
          return cachedAnswer(record, costs, planner.text(TEXT_URL));
        }
        if (step.kind === 'done') {
          const { bytesRead, bytesSkipped, ...info } = step.info;
          const answer = { ...info, ...costs, url: planner.text(TEXT_URL) };
          if (!cached) return answer;
          // A partial answer is not the image's whole: it is probed again next time.
          if (!info.partial) await storeQuietly(cached, cacheRecord(cached.key, info, answer.url, planner.validators()));
          return { ...answer, fromCache: false };
        }
        if (step.kind === 'failed') {
          const error = step.error;
          delete error.bytesRead;
          delete error.bytesSkipped;
          if (detail && (error.fetchError === 'connection' || error.fetchError === 'forbiddenAddress')) error.message += `: ${detail}`;
          throw Object.assign(error, costs);
        }
        if (step.wait > 0) {
          // A 429 or 503's Retry-After, waited out unless the probe's time ends first.
          if (now() + step.wait * 1000 >= deadline) {
            planner.fail(FAIL.timeout);
            continue;
          }
          await pause(step.wait * 1000, signal);
        }
        if (signal?.aborted) planner.fail(FAIL.cancelled);
        else if (now() >= deadline) planner.fail(FAIL.timeout);
        else {
          try {
            await transport.exchange(planner, Math.min(deadline, now() + timeout), signal, step);
          } catch (failure) {
            if (failure instanceof Error) throw failure;
            detail = failure.detail;
            planner.fail(failure.kind);
          }
        }
      }
    } finally {
      transport.close();
    }
  }

  /** A cache write that fails leaves the cache as it was: a cache is never an authority. */
  async function storeQuietly(cached, record) {
    try { await cached.store.set(cached.key, record); } catch { /* the answer stands without it */ }
  }

  /** Probes a file (Node): seeking over skips as the Swift command does, so answers and counts are its. */
  async function probeFile(path, options = {}) {
    if (!host?.probeFile) {
      throw new ImageProbeError('unsupportedRuntime', 'imageprobe: probeFile() needs Node.js (the package\'s "node" export)');
    }
    await ready();
    return host.probeFile(path, options, (scanOptions) => new Scanner(scanOptions));
  }

  /** probeFile() without a promise (Node): synchronous reads, the same answers and counts. */
  function probeFileSync(path, options = {}) {
    if (!host?.probeFileSync) {
      throw new ImageProbeError('unsupportedRuntime', 'imageprobe: probeFileSync() needs Node.js (the package\'s "node" export)');
    }
    return host.probeFileSync(path, options, (scanOptions) => new Scanner(scanOptions));
  }

  return { init, probe, probeSync, probeStream, probeURL, probeFile, probeFileSync, Scanner };
}
