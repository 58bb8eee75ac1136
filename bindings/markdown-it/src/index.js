// @imageprobe/markdown-it: width and height on every <img> markdown-it renders, so a browser
// reserves the image's box before the image arrives (no layout shift).
//
// markdown-it renders synchronously, which decides the design:
//   - local files are probed during the render with imageprobe's probeFileSync (synchronous
//     reads, as the command reads files, seeking over what the scanner skips): a few KB for
//     most images;
//   - remote images are never fetched during the render. Fetching what a document names is a
//     server-side request forgery risk, so it is off unless allow-listed; prepare() probes the
//     allowed URLs beforehand (imageprobe's Range requests) and the render reads the answers
//     from a store.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { init, probeFileSync, probeURL } from 'imageprobe';

// Node 20.16 and later load the WebAssembly module synchronously at the first probe; earlier
// 20.x can't, and a render can't wait: load it while this module is imported.
await init();

const NAME = '@imageprobe/markdown-it';
const DEFAULT_CONCURRENCY = 8;
const SCHEME = /^[a-z][a-z\d+.-]*:/i;

/** An Error with a code, for what is refused before imageprobe sees anything. */
const failure = (code, message) => Object.assign(new Error(message), { code });
/** An error in a warning: imageprobe's with its code first ("httpStatus: ..."), to search logs by. */
const describe = (error) => (error?.name === 'ImageProbeError' ? `${error.code}: ${error.message}` : String(error?.message ?? error));

/**
 * One plugin and its state: options checked once, the store, the failures of the last
 * prepare(). `md.use(sizes.plugin)` installs it; `await sizes.prepare(markdown)` fills the
 * store with the allowed remote images' sizes.
 */
export function createImageSize(options = {}) {
  const orientation = options.orientation ?? 'display';
  if (orientation !== 'display' && orientation !== 'stored') {
    throw new TypeError(`${NAME}: orientation must be 'display' or 'stored', not ${JSON.stringify(orientation)}`);
  }
  const root = options.root === undefined ? null : realRoot(options.root);
  const remote = remotePolicy(options.remote);
  const store = options.store ?? new Map();
  if (typeof store.get !== 'function' || typeof store.set !== 'function') {
    throw new TypeError(`${NAME}: store must have get(url) and set(url, entry)`);
  }
  // Full mode settles the EXIF orientation, which the displayed size needs; the stored size
  // alone is known earlier (dimensionsOnly reads the fewest bytes).
  const scanOptions = { mode: orientation === 'display' ? 'full' : 'dimensionsOnly' };
  if (options.maxBytes !== undefined) scanOptions.maxBytes = options.maxBytes;
  const onWarning = options.onWarning ?? warnOncePerSource();
  /** Remote URLs whose last probe failed, with the error, for the render's warning. */
  const failures = new Map();
  /** Probes under way, so concurrent prepare() calls share them. */
  const inflight = new Map();
  let lastMarkdownIt = null;

  /** Calls onWarning; returns null, the size of an image left alone. */
  const warn = (src, reason, error = undefined) => {
    onWarning(`${NAME}: ${src}: ${reason}`, { src, error });
    return null;
  };

  /** The size to write for a local path, or null (after a warning). */
  function localSize(src) {
    if (!root) return warn(src, 'a local image, and no root option to find it under');
    let info;
    try {
      info = probeLocal(root, src, scanOptions);
    } catch (error) {
      return warn(src, error.code === 'ENOENT' ? 'not found under root' : describe(error), error);
    }
    return chosen(src, info);
  }

  /** The size to write for a remote URL, from the store only: the render never fetches. */
  function remoteSize(src) {
    const url = parseRemote(src);
    if (!url) return warn(src, 'not a valid URL');
    // Not allowed: left alone without a word, as configured (remote images are off by default).
    if (!remote.allows(url)) return null;
    const entry = store.get(url.href);
    if (entry) return chosen(src, entry);
    const error = failures.get(url.href);
    if (error) return warn(src, describe(error), error);
    return warn(src, 'a remote image not prepared: call prepare() with this markdown before rendering it');
  }

  /** The width and height the option asks for, or null (after a warning) when there is none. */
  function chosen(src, facts) {
    const [width, height] = orientation === 'display' ? [facts.displayWidth, facts.displayHeight] : [facts.width, facts.height];
    if (width > 0 && height > 0) return { width, height };
    return warn(src, `no pixel size (${facts.format ?? 'unknown format'})`);
  }

  function sizeFor(src) {
    // An empty src, a fragment or a query alone: nothing to measure.
    if (!src || src.startsWith('#') || src.startsWith('?')) return null;
    // A protocol-relative URL (//host/path) names a host, not a local path, and its scheme is
    // the page's, unknown here: left alone.
    if (src.startsWith('//')) return null;
    if (!SCHEME.test(src)) return localSize(src);
    if (/^https?:/i.test(src)) return remoteSize(src);
    return null;  // data:, file:, ftp: and the rest are left alone
  }

  /** The plugin: wraps the image rule, keeping its rendering, adding width and height. */
  function plugin(md) {
    lastMarkdownIt = md;
    const render = md.renderer.rules.image ?? ((tokens, idx, opts, env, self) => self.renderToken(tokens, idx, opts));
    md.renderer.rules.image = (tokens, idx, opts, env, self) => {
      const token = tokens[idx];
      // An author's own width or height (markdown-it-attrs: {width=300}) is a decision: keep
      // the tag as written rather than pair it with a measured other half.
      if (!token.attrs?.some(([name]) => /^(width|height)$/i.test(name))) {
        const size = sizeFor(token.attrGet('src') ?? '');
        if (size) {
          token.attrSet('width', String(size.width));
          token.attrSet('height', String(size.height));
        }
      }
      return render(tokens, idx, opts, env, self);
    };
  }

  /** Probes one allowed URL (at most once at a time), its answer into the store. */
  function probeOne(href) {
    let job = inflight.get(href);
    if (!job) {
      job = (async () => {
        try {
          const info = await probeURL(href, { ...remote.probeOptions, publicOnly: remote.publicOnly });
          await store.set(href, entryOf(info));
          failures.delete(href);
          return null;
        } catch (error) {
          failures.set(href, error);
          return error;
        } finally {
          inflight.delete(href);
        }
      })();
      inflight.set(href, job);
    }
    return job;
  }

  /**
   * Finds the images of `sources` (markdown text or texts) with md.parse, and probes each
   * allowed remote URL the store hasn't answered: once, `concurrency` at a time. A URL's
   * failure is recorded (the report, the render's warning), not thrown, and tried again by the
   * next prepare(). Resolves to the counts.
   */
  async function prepare(sources, { md = lastMarkdownIt, env = {} } = {}) {
    if (!md) throw new TypeError(`${NAME}: prepare() parses with the markdown-it the plugin is used on: md.use(sizes.plugin) first, or pass { md }`);
    const texts = typeof sources === 'string' ? [sources] : [...sources];
    const allowed = new Set();
    const notAllowed = new Set();
    for (const text of texts) {
      // A fresh env for each text: md.parse keeps a document's link references in it.
      for (const src of imageSources(md.parse(text, { ...env }))) {
        if (!/^https?:/i.test(src)) continue;
        const url = parseRemote(src);
        if (url) (remote.allows(url) ? allowed : notAllowed).add(url.href);
      }
    }
    const report = { allowed: allowed.size, notAllowed: notAllowed.size, fromStore: 0, probed: 0, failed: [] };
    const queue = [];
    for (const href of allowed) {
      if (store.get(href)) report.fromStore++;
      else queue.push(href);
    }
    const worker = async () => {
      while (queue.length) {
        const href = queue.shift();
        const error = await probeOne(href);
        if (error) report.failed.push({ url: href, error });
        else report.probed++;
      }
    };
    await Promise.all(Array.from({ length: Math.min(remote.concurrency, queue.length) }, worker));
    return report;
  }

  return { plugin, prepare, store };
}

/** The plugin alone: `md.use(imageSize, { root })`, for local images (remote ones need prepare()). */
export default function imageSize(md, options) {
  createImageSize(options).plugin(md);
}

// --- local files -----------------------------------------------------------------------------

function realRoot(root) {
  const given = root instanceof URL ? fileURLToPath(root) : String(root);
  try {
    return fs.realpathSync(given);
  } catch (error) {
    throw new TypeError(`${NAME}: root ${given}: ${error.message}`, { cause: error });
  }
}

const inside = (root, file) => file === root || file.startsWith(root.endsWith(path.sep) ? root : root + path.sep);

/**
 * A local src's facts. The path is the src without its query or fragment, percent-decoded as a
 * web server would, joined under root: `/a.png` is the site's root, not the disk's. It must stay
 * under root twice: as written (`..`), then as the file system resolves it (symbolic links),
 * before a byte is read.
 */
function probeLocal(root, src, scanOptions) {
  const end = src.search(/[?#]/);
  let relative;
  try {
    relative = decodeURIComponent(end < 0 ? src : src.slice(0, end));
  } catch (error) {
    throw failure('badPath', `not a valid path: ${error.message}`);
  }
  if (relative.includes('\0')) throw failure('badPath', 'not a valid path: a NUL byte');
  const outside = () => failure('outsideRoot', 'outside root: not read');
  const candidate = path.join(root, relative);
  if (!inside(root, candidate)) throw outside();
  const real = fs.realpathSync(candidate);
  if (!inside(root, real)) throw outside();
  return probeFileSync(real, scanOptions);
}

// --- remote images ---------------------------------------------------------------------------

function parseRemote(src) {
  try {
    return new URL(src);
  } catch {
    return null;
  }
}

/**
 * The remote option checked: an allow-list of URL prefixes ("https://images.example.com/") and
 * host names ("cdn.example.org"); publicOnly (default true) for probeURL's address guard.
 */
function remotePolicy(remote) {
  if (remote === undefined || remote === null || remote === false) {
    return { allows: () => false, publicOnly: true, concurrency: DEFAULT_CONCURRENCY, probeOptions: {} };
  }
  const { allow = [], publicOnly = true, concurrency = DEFAULT_CONCURRENCY, probeOptions = {}, cache } = remote;
  if (!Array.isArray(allow)) throw new TypeError(`${NAME}: remote.allow must be an array of URL prefixes and host names`);
  if (!(Number.isInteger(concurrency) && concurrency > 0)) throw new TypeError(`${NAME}: remote.concurrency must be a positive integer`);
  const rules = allow.map(allowRule);
  // imageprobe's cache of URL answers, kept across builds and revalidated (SPEC.md §6.7).
  const withCache = cache === undefined ? probeOptions : { ...probeOptions, cache };
  return { allows: (url) => rules.some((rule) => rule(url)), publicOnly: publicOnly !== false, concurrency, probeOptions: withCache };
}

/** One allow-list entry as a test of a parsed URL. */
function allowRule(entry) {
  if (typeof entry !== 'string' || entry === '') throw new TypeError(`${NAME}: remote.allow entries are strings`);
  if (entry.includes('://')) {
    const prefix = new URL(entry);
    if (prefix.protocol !== 'http:' && prefix.protocol !== 'https:') {
      throw new TypeError(`${NAME}: remote.allow ${entry}: only http and https URLs are probed`);
    }
    // Both sides parsed and the origin compared first, so that "https://images.example.com"
    // lets neither "https://images.example.com.evil.test/" nor "https://images.example.com@evil.test/"
    // through, and "/public/../private/" is compared as the "/private/" it is.
    return (url) => url.origin === prefix.origin && url.href.startsWith(prefix.href);
  }
  // A host name, with a port if one is given; parsed as a URL's host so case, IDNA and IPv6
  // spellings compare as the URL's do. Either scheme.
  let host;
  try {
    host = new URL(`http://${entry}`);
  } catch {
    host = null;
  }
  if (!host || host.pathname !== '/' || host.username || host.search || host.hash || entry.includes('/')) {
    throw new TypeError(`${NAME}: remote.allow ${entry}: not a host name or an http(s) URL prefix`);
  }
  return entry.includes(':') && host.port ? (url) => url.host === host.host : (url) => url.hostname === host.hostname;
}

/**
 * What the store keeps for a URL: the facts any front end needs to size an image (under the
 * command's JSON names), and when they were checked as Unix time in seconds, nothing of this
 * plugin's own: a cache on disk may be shared with other front ends.
 */
function entryOf(info) {
  return {
    width: info.width,
    height: info.height,
    displayWidth: info.displayWidth,
    displayHeight: info.displayHeight,
    format: info.format,
    checked: Date.now() / 1000,
  };
}

/** Every image token's src in a token list, inline children (and an image's alt) included. */
function* imageSources(tokens) {
  for (const token of tokens) {
    if (token.type === 'image') {
      const src = token.attrGet('src');
      if (src) yield src;
    }
    if (token.children) yield* imageSources(token.children);
  }
}

/** The default onWarning: console.warn, once per src (a site's build renders a page many times). */
function warnOncePerSource() {
  const seen = new Set();
  return (message, { src }) => {
    if (seen.has(src)) return;
    seen.add(src);
    console.warn(message);
  };
}
