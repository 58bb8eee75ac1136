// Types of the imageprobe package (every entry: "imageprobe", "imageprobe/web"). The fields of
// ImageInfo are generated from src/fields.mjs by build.mjs: edit that table, not this file.
// Platform types (fetch, AbortSignal, ReadableStream, Response) are taken from the consumer's
// own environment (lib "dom", @types/node, Deno, workers) when it has them.

type Global = typeof globalThis;
/** The environment's fetch(), or any function of that shape. */
export type FetchFunction = Global extends { fetch: infer F } ? F : (input: string, init?: object) => Promise<unknown>;
type AbortSignalLike = Global extends { AbortSignal: { prototype: infer S } } ? S : { readonly aborted: boolean };
type HeadersInitLike = Global extends { Headers: new (init: infer H) => unknown } ? H : Record<string, string>;
type ResponseLike = Global extends { Response: { prototype: infer R } } ? R : never;
type ReadableStreamLike = Global extends { ReadableStream: { prototype: infer R } } ? R : never;
type URLLike = Global extends { URL: { prototype: infer U } } ? U : never;
type WasmModuleLike = Global extends { WebAssembly: { Module: { prototype: infer M } } } ? M : never;

declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
}

/** How much to learn: everything (default), the size only (fewest bytes), or every frame. */
export type Mode = 'full' | 'dimensionsOnly' | 'animation';

/** Bytes: a Uint8Array (a Node Buffer is one), any other ArrayBufferView, or an ArrayBuffer. */
export type Bytes = ArrayBufferView | ArrayBuffer;

/** A count: a number, or a BigInt when it is above 2^53 (exact, never negative). */
export type Count = number | bigint;

/** The scanner's options (SPEC.md §1.5); 0 or absent means the default. */
export interface ScanOptions {
  mode?: Mode;
  /** Give up after this many bytes without an answer (default 16 MiB). */
  maxBytes?: number | bigint;
  /** The whole input's length when known (probe() and probeFile() set it). */
  inputLength?: number | bigint;
  /** Wider images fail with "limitExceeded" (default 2^30). */
  maxWidth?: number;
  /** Taller images fail with "limitExceeded" (default 2^30). */
  maxHeight?: number;
  /** Entries examined in one structure, frames walked (default 65,536). */
  maxEntries?: number;
  /** Boxes nested (default 16). */
  maxDepth?: number;
  /**
   * Refuse an image of more than this many pixels (width × height, × frames in animation
   * mode) with ImageProbeError "tooManyPixels", which carries its format and size: a
   * decompression-bomb guard (default: no limit).
   */
  maxPixels?: number | bigint;
}

/**
 * A file's CICP (ITU-T H.273 code points): colour primaries, transfer characteristics, matrix
 * coefficients, and whether the range is full (true) or limited (false).
 */
export type CICP = [primaries: number, transfer: number, matrix: number, fullRange: boolean];

/** An image's facts, under the names of the Swift command's JSON (SPEC.md §4). Unknown facts are null. */
export interface ImageInfo {
/*IMAGE_INFO_FIELDS*/
  /** Why the answer is partial ("limitExceeded", "truncated", ...), or null. */
  partialReason: string | null;
  /** Bytes read (fed to the scanner), not jumped. */
  bytesRead: Count;
  /** Bytes jumped over without reading (files and memory: skips of 64 KiB or more). */
  bytesSkipped: Count;
}

/** probeURL()'s answer: the facts, what the probe cost, and the URL answered from (after redirects). */
export interface URLImageInfo extends Omit<ImageInfo, 'bytesRead' | 'bytesSkipped'> {
  /** Every byte received: in Node every byte off the socket; over fetch() bodies as read, heads as their status line and `name: value\r\n` per field. */
  bytesTransferred: Count;
  /** Requests sent. */
  requests: number;
  url: string;
  /** With a `cache` only: whether the answer is the cache's (fresh: no request; or revalidated by a 304). */
  fromCache?: boolean;
}

/** An entry of probeURL's cache (SPEC.md §6.7), the same as Python's URLCache writes. */
export interface URLCacheEntry {
  imageprobe: 1;
  key: string;
  url: string | null;
  /** Unix seconds of the last answer from the server. */
  checked: number;
  entityTag: string;
  lastModified: string;
  /** The response's max-age in seconds (0: no-cache), or null for the cache's own freshness. */
  freshness: number | null;
  /** The command's JSON object for the image, without the probe's costs. */
  answer: Record<string, unknown>;
}

/** Where probeURL keeps its answers: any key-value store. What `get` returns is checked, and anything else is a miss. */
export interface URLCacheStore {
  get(key: string): unknown | Promise<unknown>;
  set(key: string, entry: URLCacheEntry): void | Promise<void>;
  /** How long an answer is used without asking the server, in milliseconds, when its response set no max-age (default a day). */
  freshness?: number;
}

/** A Scanner's state: more input needed, the answer, or why there is none. */
export type ScanResult =
  | { status: 'needMore'; needed: Count }
  | { status: 'done'; info: ImageInfo }
  | { status: 'unsupported'; error: ImageProbeError };

/** The codes of ImageProbeError: the Swift command's JSON `error`. */
export type ErrorCode =
  | 'unknownFormat' | 'malformed' | 'truncated' | 'limitExceeded' | 'unsupportedFeature' | 'tooManyPixels'
  | 'httpStatus' | 'tooManyRedirects' | 'redirectLoop' | 'badContentRange' | 'contentEncoded' | 'invalidResponse'
  | 'resourceChanged' | 'unsupportedURL' | 'timeout' | 'connection' | 'forbiddenAddress' | 'cancelled'
  | 'io' | 'trap' | 'disposed' | 'notLoaded' | 'unsupportedRuntime' | 'argument';

/** Every failure of the package. */
export declare class ImageProbeError extends Error {
  constructor(code: ErrorCode, message: string, details?: object);
  readonly name: 'ImageProbeError';
  /** The command's JSON `error`: a scanner code (SPEC.md §1) or a fetch code (§6.1). */
  code: ErrorCode;
  /** The format recognised before the failure, or null. */
  detectedFormat: string | null;
  /** "tooManyPixels" (maxPixels) only: the refused image's format, size and (when known) frame count. */
  format?: string;
  width?: number;
  height?: number;
  frameCount?: number | null;
  /** Files, memory, streams: bytes read and jumped before the failure. */
  bytesRead?: Count;
  bytesSkipped?: Count;
  /** URLs: what the probe cost, the planner's failure code ("scan" for a scan failure) and the HTTP status. */
  bytesTransferred?: Count;
  requests?: number;
  fetchError?: string;
  status?: number | null;
}

/** Loads the WebAssembly module: from beside the package (the default), a URL, bytes, a Response or a compiled WebAssembly.Module (Workers, bundlers). */
export declare function init(source?: URLLike | string | Bytes | WasmModuleLike | ResponseLike | PromiseLike<ResponseLike>): Promise<void>;

/** The answer for bytes in memory, read as the Swift command reads a file (the same answers and byte counts). */
export declare function probe(input: Bytes, options?: ScanOptions): Promise<ImageInfo>;

/** probe() without a promise: needs the module loaded (always so in Node; elsewhere after `await init()`). */
export declare function probeSync(input: Bytes, options?: ScanOptions): ImageInfo;

export interface StreamOptions extends ScanOptions {
  signal?: AbortSignalLike;
}

/** A WHATWG ReadableStream of bytes, a Node Readable, or any async iterable of byte chunks. */
export type ByteStream = ReadableStreamLike | AsyncIterable<unknown>;

/** Reads the stream until the answer, then cancels it. A chunk that isn't bytes is a TypeError. */
export declare function probeStream(stream: ByteStream, options?: StreamOptions): Promise<ImageInfo>;

export interface URLOptions extends Omit<ScanOptions, 'inputLength'> {
  /** The fetch() to use (default: the global one). */
  fetch?: FetchFunction;
  signal?: AbortSignalLike;
  /** Extra request headers (Range, If-Range and Accept-Encoding are the probe's own). */
  headers?: HeadersInitLike;
  /** Per request, in milliseconds (default 10,000). */
  timeout?: number;
  /** For the whole probe, in milliseconds (default the larger of 30,000 and 3 × timeout). */
  probeTimeout?: number;
  /** Every byte received, heads, interim responses and chunk framing included in Node (default 16 MiB); also the scanner's limit. */
  maxBytes?: number | bigint;
  /** Requests a probe may send (default 32). */
  maxRequests?: number;
  /** Redirects followed (default 5). */
  maxRedirects?: number;
  /** Node only: connect to public addresses only, checked on every address and redirect (SPEC.md §6.4); elsewhere "unsupportedRuntime". */
  publicOnly?: boolean;
  /** With publicOnly: blocks allowed all the same ("10.8.0.0/16", "fd00::/8", one address). */
  allow?: string[];
  /** Ignored: the planner follows redirects (browsers, where fetch() hides Location, follow them in fetch()). */
  redirect?: 'manual' | 'follow';
  /**
   * Answers kept and revalidated (SPEC.md §6.7): a fresh one without a request, a stale one by a
   * conditional request that a 304 answers. Node: a directory, or { dir, freshness (ms), maxEntries };
   * anywhere: a store.
   */
  cache?: string | URLLike | { dir: string | URLLike; freshness?: number; maxEntries?: number } | URLCacheStore;
}

/** Probes an http(s) URL with Range requests (SPEC.md §6.1's strategy, driven by the core's planner): in Node over its own sockets, elsewhere over fetch(). */
export declare function probeURL(url: string | URLLike, options?: URLOptions): Promise<URLImageInfo>;

/** Probes a file, seeking over skips as the Swift command does (Node only). */
export declare function probeFile(path: string | URLLike | Uint8Array, options?: ScanOptions): Promise<ImageInfo>;

/** probeFile() with synchronous reads, for callers that can't wait (Node only; the module must be loaded, as probeSync). */
export declare function probeFileSync(path: string | URLLike | Uint8Array, options?: ScanOptions): ImageInfo;

/** A push scanner: feed chunks in any split; the answer is the same however the input is split. */
export declare class Scanner {
  /** Loads the module if needed, then makes a scanner. */
  static create(options?: ScanOptions): Promise<Scanner>;
  /** Needs the module loaded (always so in Node; elsewhere after `await init()`). */
  constructor(options?: ScanOptions);
  /** The current result, without feeding. */
  readonly result: ScanResult;
  /** Feeds a chunk until the answer; answers are sticky. */
  feed(chunk: Bytes): ScanResult;
  /** The input has ended: the final result. */
  finish(): ScanResult;
  /** Bytes the scanner doesn't need next: a reader that can seek jumps them and calls skip(). */
  readonly pendingSkip: Count;
  /** Passes over up to `count` bytes (at most pendingSkip) without reading them; returns how many. */
  skip(count: number | bigint): Count;
  /** Drops the state; later calls throw ImageProbeError("disposed"). */
  dispose(): void;
  [Symbol.dispose](): void;
}
