// Types of `probe-image-size` (@imageprobe/probe-image-size): probe-image-size 7.x's API.

/** probe-image-size's error: `code` "ECONTENT" for what isn't an image, `statusCode` for an HTTP status. */
declare class ProbeError extends Error {
  constructor(message: string, code?: string, statusCode?: number);
  code?: string;
  statusCode?: number;
}

declare namespace probe {
  interface ProbeResult {
    width: number;
    height: number;
    /** "jpg", "png", "gif", "bmp", "webp", "tiff", "psd", "ico", "svg", "avif", "heic", "heif"; other formats by imageprobe's name. */
    type: string;
    mime: string;
    /** "px", or for SVG the unit its width is written in ("in", "mm", "pt", ...). */
    wUnits: string;
    hUnits: string;
    /** URLs: the whole file's length (Content-Length, or a 206's Content-Range). */
    length?: number;
    /** URLs: the URL answered from, after redirects. */
    url?: string;
    /** EXIF orientation 1-8 (JPEG, WebP, HEIF, AVIF). */
    orientation?: number;
    /** An icon's entries, a HEIF's sizes. */
    variants?: { width: number; height: number }[];
  }

  interface ProbeOptions {
    /** Request headers (a User-Agent of probe-image-size's form by default). */
    headers?: Record<string, string>;
    /** Redirects followed (default 10). */
    follow_max?: number;
    /** Milliseconds; the longest of the three limits each request (defaults 10,000, 60,000, 60,000). */
    open_timeout?: number;
    response_timeout?: number;
    read_timeout?: number;
    /** Refuse loopback, private and other non-public addresses (imageprobe's; default false). */
    publicOnly?: boolean;
    [needleOption: string]: unknown;
  }

  /** A Node stream, or any EventEmitter-style stream of byte chunks. */
  interface StreamLike {
    on(event: string, listener: (...args: any[]) => void): unknown;
    emit(event: string, ...args: any[]): unknown;
  }

  /** The result for bytes in memory, or null. */
  function sync(data: Uint8Array | ArrayBuffer | ArrayBufferView | number[]): ProbeResult | null;

  /** probe-image-size's ProbeError. */
  const Error: typeof ProbeError;
  type Error = ProbeError;
}

/** Probes a URL (Range requests, bounded) or reads a stream until the answer (closed after it, unless keepOpen). */
declare function probe(src: string, options?: probe.ProbeOptions): Promise<probe.ProbeResult>;
declare function probe(src: probe.StreamLike, keepOpen?: boolean): Promise<probe.ProbeResult>;

export = probe;
