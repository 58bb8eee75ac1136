// Types of @imageprobe/markdown-it. markdown-it's own types are not required: the plugin takes
// any object with markdown-it's renderer rules and parse(), which a MarkdownIt (with
// @types/markdown-it or without) is.
import type { URLOptions } from 'imageprobe';

// A URL where the environment declares one (lib "dom", @types/node), as imageprobe's types do.
type URLLike = typeof globalThis extends { URL: { prototype: infer U } } ? U : never;

/** What the plugin uses of a markdown-it instance. */
export interface MarkdownItLike {
  renderer: { rules: { image?: any } };
  parse(src: string, env: any): any[];
}

/** A remote image's facts as the store keeps them (shareable with other front ends). */
export interface ImageSizeEntry {
  /** The stored size, before any orientation. */
  width: number | null;
  height: number | null;
  /** The size as browsers show it: EXIF orientation (and a HEIF crop) applied. */
  displayWidth: number | null;
  displayHeight: number | null;
  /** imageprobe's format name: "jpeg", "png", "webp", "avif", "svg", ... */
  format: string;
  /** When it was probed: Unix time, in seconds. */
  checked: number;
}

/** Where remote sizes are kept: a Map by default. get() is called during the (synchronous) render. */
export interface ImageSizeStore {
  get(url: string): ImageSizeEntry | undefined;
  /** prepare() waits for a returned promise. */
  set(url: string, entry: ImageSizeEntry): unknown;
}

export interface RemoteOptions {
  /** URL prefixes ("https://images.example.com/") and host names ("cdn.example.org", "cdn.example.org:8443"). */
  allow: string[];
  /** Connect to public addresses only (imageprobe's SSRF guard: loopback, private and link-local refused). Default true. */
  publicOnly?: boolean;
  /** Probes at a time in prepare(). Default 8. */
  concurrency?: number;
  /** More of probeURL's options: timeout, headers, maxBytes, maxRedirects, allow (address blocks under publicOnly), fetch... */
  probeOptions?: Omit<URLOptions, 'publicOnly' | 'mode'>;
  /** imageprobe's cache of URL answers across builds (probeURL's `cache`): a directory, { dir, freshness, maxEntries } or a store. */
  cache?: URLOptions['cache'];
}

export interface ImageSizeOptions {
  /** The directory local paths are found under: `/a.png` and `a.png` are `<root>/a.png`. Required for local images. */
  root?: string | URLLike;
  /** 'display' (default): the size as browsers show it, EXIF orientation applied; 'stored': the size as stored. */
  orientation?: 'display' | 'stored';
  /** Local files: give up after feeding this many bytes without an answer (imageprobe's default, 16 MiB). */
  maxBytes?: number;
  /** Remote images: off unless given, and then only the allowed ones, from prepare(). */
  remote?: RemoteOptions | false | null;
  /** Where remote sizes are kept (default: a Map of this plugin's own). */
  store?: ImageSizeStore;
  /** Called for each image left without a size for a reason worth knowing (default: console.warn, once per src). */
  onWarning?: (message: string, detail: { src: string; error: unknown }) => void;
}

/** What one prepare() did. */
export interface PrepareReport {
  /** Distinct remote URLs found and allowed. */
  allowed: number;
  /** Distinct remote URLs found and not allowed (never requested). */
  notAllowed: number;
  /** Allowed URLs the store already answered. */
  fromStore: number;
  /** Allowed URLs probed now, their answers stored. */
  probed: number;
  /** Allowed URLs whose probe failed (imageprobe's ImageProbeError: code forbiddenAddress, httpStatus, ...). */
  failed: { url: string; error: unknown }[];
}

export interface PrepareOptions {
  /** The markdown-it to parse with (default: the last one the plugin was used on). */
  md?: MarkdownItLike;
  /** The env for md.parse (copied for each text). */
  env?: object;
}

export interface ImageSize {
  /** `md.use(sizes.plugin)`. */
  plugin: (md: MarkdownItLike) => void;
  /** Probes the allowed remote images of the markdown, before a render. Failures are in the report, never thrown. */
  prepare(sources: string | Iterable<string>, options?: PrepareOptions): Promise<PrepareReport>;
  /** The store in use. */
  store: ImageSizeStore;
}

/** A plugin with remote images: `md.use(sizes.plugin); await sizes.prepare(text); md.render(text)`. */
export declare function createImageSize(options?: ImageSizeOptions): ImageSize;

/** The plugin alone, for local images: `md.use(imageSize, { root: 'public' })`. */
declare function imageSize(md: MarkdownItLike, options?: ImageSizeOptions): void;
export default imageSize;
