// compat-core.mjs: the peers' conventions over imageprobe's answers, shared by imageprobe/compat,
// @imageprobe/image-size and @imageprobe/probe-image-size. No I/O and no `node:` import here:
// the callers pass the public API ({ probeSync, Scanner }) and, for files, Node's fs.promises.
//
// The core answers the format and the size. Beside them the peers report a few things the core
// has no field for: a container's entries (image-size's `images`, probe-image-size's
// `variants`), image-size's type names and messages, probe-image-size's SVG units, and the
// orientation in a HEIF's Exif item (which the core ignores, as MIAF says: SPEC.md §3 "HEIF").
// Those are read here from the bytes the scan already read, bounded, and only after the core
// has recognised the file, so they never decide whether something is an image.

/** The most entries a listing reports (an ICO's count is 16 bits; ICNS and HEIF have no cap). */
export const MAX_ENTRIES = 4096;
/** The bytes of a file kept for the listings: the first read, as SPEC.md §4 reads files. */
export const HEAD_SIZE = 64 * 1024;

const ascii = (bytes, start, end) => String.fromCharCode(...bytes.subarray(start, end));
const be16 = (b, at) => (b[at] << 8) | b[at + 1];
const be32 = (b, at) => b[at] * 0x1000000 + ((b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]);
const le16 = (b, at) => b[at] | (b[at + 1] << 8);
const le32 = (b, at) => (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16)) + b[at + 3] * 0x1000000;
/** An unsigned big-endian integer of 0-8 bytes, or null when it can't be exact as a number. */
function beN(b, at, size) {
  let value = 0;
  for (let i = 0; i < size; i++) value = value * 256 + b[at + i];
  return Number.isSafeInteger(value) ? value : null;
}

// --- listings ---------------------------------------------------------------------------------

/** An ICO's or CUR's directory entries as both peers list them (0 in a byte is 256), from `head`. */
export function iconEntries(head) {
  if (head.length < 6) return [];
  const count = Math.min(le16(head, 4), MAX_ENTRIES);
  const entries = [];
  for (let index = 0; index < count && 6 + index * 16 + 2 <= head.length; index++) {
    const at = 6 + index * 16;
    entries.push({ width: head[at] || 256, height: head[at + 1] || 256 });
  }
  return entries;
}

/** Pixel sizes of the ICNS element types: the table of Sources/ImageProbe/Formats/ICNS.swift. */
const ICNS_SIZES = {
  'icm#': [16, 12], icm4: [16, 12], icm8: [16, 12],
  'ics#': 16, ics4: 16, ics8: 16, is32: 16, icp4: 16, ic04: 16, s8mk: 16,
  icsb: 18, sb24: 24,
  ICON: 32, 'ICN#': 32, icl4: 32, icl8: 32, il32: 32, icp5: 32, ic05: 32, ic11: 32, l8mk: 32,
  icsB: 36,
  'ich#': 48, ich4: 48, ich8: 48, ih32: 48, SB24: 48, h8mk: 48,
  icp6: 64, ic12: 64,
  it32: 128, ic07: 128, t8mk: 128,
  ic08: 256, ic13: 256, ic09: 512, ic14: 512, ic10: 1024,
};

/**
 * An ICNS family's icon elements, as image-size lists them ({ width, height, type }, masks
 * included), in file order. A generator: it yields the offset of each element header it needs
 * and takes 8 bytes back (fewer at the end), so a file is listed with positioned reads and a
 * buffer by slicing. Elements without data and types of no known size are left out.
 */
export function* icnsEntries() {
  const header = yield 0;
  if (header.length < 8) return [];
  const end = be32(header, 4);
  const entries = [];
  for (let at = 8, elements = 0; at + 8 <= end && elements < MAX_ENTRIES; elements++) {
    const element = yield at;
    if (element.length < 8) break;
    const length = be32(element, 4);
    if (length < 8) break;
    const type = ascii(element, 0, 4);
    const size = ICNS_SIZES[type];
    if (size !== undefined && length > 8) {
      const [width, height] = Array.isArray(size) ? size : [size, size];
      entries.push({ width, height, type });
    }
    at += length;
  }
  return entries;
}

/** Runs a listing generator over bytes in memory. */
export function listFromBytes(steps, bytes) {
  let step = steps.next();
  while (!step.done) step = steps.next(bytes.subarray(step.value, step.value + 8));
  return step.value;
}

/** Runs a listing generator with `readAt(offset, 8)` returning bytes or a promise of them. */
export async function listFromReader(steps, readAt) {
  let step = steps.next();
  while (!step.done) step = steps.next(await readAt(step.value, 8));
  return step.value;
}

/** The ISOBMFF boxes in bytes[start, end): { type, start (its payload), end }. */
function* boxes(bytes, start, end) {
  let at = start;
  while (at + 8 <= end) {
    let size = be32(bytes, at);
    let header = 8;
    if (size === 1) {
      if (at + 16 > end) return;
      size = beN(bytes, at + 8, 8) ?? Infinity;
      header = 16;
    } else if (size === 0) {
      size = end - at;
    }
    if (size < header || at + size > end) return;
    yield { type: ascii(bytes, at + 4, at + 8), start: at + header, end: at + size };
    at += size;
  }
}

function child(bytes, parent, type) {
  for (const box of boxes(bytes, parent.start, parent.end)) if (box.type === type) return box;
  return null;
}

/**
 * What a HEIF's or AVIF's `meta` box holds for the peers, from `head`: every `ispe` of `ipco`
 * in order, each with the `clap` that follows it before the next `ispe` applied (image-size's
 * reading of the clean aperture), the raw `ispe` sizes (probe-image-size's variants), and where
 * the first `Exif` item's bytes are ({ offset, length } in the file), or null.
 */
export function heifMeta(head) {
  const result = { images: [], sizes: [], exif: null };
  let meta = null;
  for (const box of boxes(head, 0, head.length)) {
    if (box.type === 'meta') { meta = { start: box.start + 4, end: box.end }; break; }
    if (box.type === 'mdat') break;
  }
  if (!meta) return result;
  const ipco = child(head, child(head, meta, 'iprp') ?? { start: 0, end: 0 }, 'ipco');
  if (ipco) {
    for (const property of boxes(head, ipco.start, ipco.end)) {
      if (result.sizes.length >= MAX_ENTRIES) break;
      if (property.type === 'ispe' && property.end - property.start >= 12) {
        const size = { width: be32(head, property.start + 4), height: be32(head, property.start + 8) };
        result.sizes.push(size);
        result.images.push({ ...size });
      } else if (property.type === 'clap' && property.end - property.start >= 16 && result.images.length > 0) {
        const last = result.images[result.images.length - 1];
        if (last.clapped) continue;
        const fraction = (at) => {
          const d = be32(head, at + 4);
          return d === 0 ? null : Math.round(be32(head, at) / d);
        };
        const width = fraction(property.start);
        const height = fraction(property.start + 8);
        if (width > 0 && width <= last.width) last.width = width;
        if (height > 0 && height <= last.height) last.height = height;
        last.clapped = true;
      }
    }
    for (const image of result.images) delete image.clapped;
  }
  result.exif = exifItem(head, meta);
  return result;
}

/**
 * Where a HEIF's top-level `meta` box ends as its header says (it may lie past `head`), or
 * null: a reader that stopped at the core's answer reads on to there for heifMeta().
 */
export function heifMetaEnd(head) {
  let at = 0;
  while (at + 8 <= head.length) {
    const size = be32(head, at);
    if (size < 8) return null;  // 0 (to the end) and 1 (64-bit) aren't a meta box's sizes here
    if (ascii(head, at + 4, at + 8) === 'meta') return at + size;
    at += size;
  }
  return null;
}

/** The first `Exif` item's location: iinf names it, iloc places it (in the file or in `idat`). */
function exifItem(head, meta) {
  const iinf = child(head, meta, 'iinf');
  const iloc = child(head, meta, 'iloc');
  if (!iinf || !iloc || iinf.end - iinf.start < 6) return null;
  let id = null;
  const entriesStart = iinf.start + 4 + (head[iinf.start] === 0 ? 2 : 4);
  for (const infe of boxes(head, entriesStart, iinf.end)) {
    if (infe.type !== 'infe' || infe.end - infe.start < 12) continue;
    const version = head[infe.start];
    if (version < 2) continue;
    const wide = version >= 3;
    const typeAt = infe.start + 4 + (wide ? 4 : 2) + 2;
    if (typeAt + 4 > infe.end) continue;
    if (ascii(head, typeAt, typeAt + 4) === 'Exif') {
      id = wide ? be32(head, infe.start + 4) : be16(head, infe.start + 4);
      break;
    }
  }
  if (id === null) return null;
  const b = head;
  const version = b[iloc.start];
  if (iloc.end - iloc.start < 8 || version > 2) return null;
  const offsetSize = b[iloc.start + 4] >> 4;
  const lengthSize = b[iloc.start + 4] & 15;
  const baseSize = b[iloc.start + 5] >> 4;
  const indexSize = version === 0 ? 0 : b[iloc.start + 5] & 15;
  let at = iloc.start + 6;
  const need = (n) => at + n <= iloc.end;
  if (!need(version < 2 ? 2 : 4)) return null;
  const items = version < 2 ? be16(b, at) : be32(b, at);
  at += version < 2 ? 2 : 4;
  for (let item = 0; item < items && item < MAX_ENTRIES; item++) {
    const idSize = version < 2 ? 2 : 4;
    if (!need(idSize)) return null;
    const itemId = idSize === 2 ? be16(b, at) : be32(b, at);
    at += idSize;
    let method = 0;
    if (version >= 1) {
      if (!need(2)) return null;
      method = be16(b, at) & 15;
      at += 2;
    }
    if (!need(2 + baseSize + 2)) return null;
    at += 2;  // data_reference_index
    const base = beN(b, at, baseSize);
    at += baseSize;
    const extents = be16(b, at);
    at += 2;
    const extentSize = indexSize + offsetSize + lengthSize;
    if (!need(extents * extentSize)) return null;
    if (itemId === id) {
      if (extents !== 1 || base === null || method > 1) return null;
      const offset = beN(b, at + indexSize, offsetSize);
      const length = beN(b, at + indexSize + offsetSize, lengthSize);
      if (offset === null || length === null) return null;
      if (method === 0) return { offset: base + offset, length };
      const idat = child(head, meta, 'idat');
      return idat ? { offset: idat.start + base + offset, length } : null;
    }
    at += extents * extentSize;
  }
  return null;
}

/** The Orientation (1-8) in IFD0 of an Exif item's bytes (a 4-byte offset to the TIFF header, then it), or null. */
export function exifItemOrientation(item) {
  if (item.length < 4) return null;
  const skip = be32(item, 0);
  return item.length - 4 > skip ? tiffOrientation(item.subarray(4 + skip)) : null;
}

/** IFD0's Orientation (tag 274, one SHORT) in a TIFF structure, or null. */
export function tiffOrientation(tiff) {
  if (tiff.length < 8) return null;
  const little = tiff[0] === 0x49 && tiff[1] === 0x49;
  if (!little && !(tiff[0] === 0x4D && tiff[1] === 0x4D)) return null;
  const u16 = (at) => (little ? le16(tiff, at) : be16(tiff, at));
  const u32 = (at) => (little ? le32(tiff, at) : be32(tiff, at));
  if (u16(2) !== 42) return null;
  const ifd = u32(4);
  if (ifd + 2 > tiff.length) return null;
  const count = u16(ifd);
  for (let index = 0; index < count && ifd + 2 + index * 12 + 12 <= tiff.length; index++) {
    const at = ifd + 2 + index * 12;
    if (u16(at) === 274 && u16(at + 2) === 3 && u32(at + 4) === 1) {
      const value = u16(at + 8);
      return value >= 1 && value <= 8 ? value : null;
    }
  }
  return null;
}

/**
 * Whether the peers would read a size from this answer: both take an SVG's size from its
 * whole root start tag (as browsers need it well-formed), so an SVG that ends inside the tag,
 * which the core answers as partial ("truncated"), is no image to them.
 */
export function peersReadSize(info) {
  return !(info.format === 'svg' && info.partial && info.partialReason === 'truncated');
}

// --- SVG lengths as written -------------------------------------------------------------------

const LENGTH = /^([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)([a-zA-Z]*|%)$/;
/** CSS pixels per unit (SPEC.md §3.24), lower case; '' is user units. */
export const SVG_UNITS = { '': 1, px: 1, in: 96, cm: 96 / 2.54, mm: 96 / 25.4, q: 96 / 101.6, pt: 4 / 3, pc: 16, em: 16, rem: 16, ex: 8, ch: 8 };

/**
 * The root element's `width`, `height` and `viewBox` as written ({ value, unit } and four
 * numbers), from `head`, once the core has said the file is an SVG: null for an attribute that
 * is absent or that this reading can't take as a length. The prolog (declaration, comments,
 * DOCTYPE with its internal subset) is stepped over as SPEC.md §3.24 describes.
 */
export function svgAttributes(head) {
  const text = new TextDecoder('latin1').decode(head.subarray(0, HEAD_SIZE));
  let at = text.charCodeAt(0) === 0xEF && text.charCodeAt(1) === 0xBB && text.charCodeAt(2) === 0xBF ? 3 : 0;
  for (;;) {
    at = text.indexOf('<', at);
    if (at < 0) return null;
    if (text.startsWith('<?', at)) at = text.indexOf('?>', at) + 2;
    else if (text.startsWith('<!--', at)) at = text.indexOf('-->', at) + 3;
    else if (text.startsWith('<!', at)) at = doctypeEnd(text, at);
    else break;
    if (at < 2) return null;
  }
  const tag = /^<[^\s/>]+/.exec(text.slice(at, at + 256));
  if (!tag) return null;
  at += tag[0].length;
  const attributes = {};
  const attribute = /\s*([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/y;
  for (;;) {
    attribute.lastIndex = at;
    const match = attribute.exec(text);
    if (!match) break;
    attributes[match[1]] = match[2] ?? match[3];
    at = attribute.lastIndex;
  }
  const length = (value) => {
    const match = value === undefined ? null : LENGTH.exec(value.trim());
    if (!match) return null;
    const unit = match[2].toLowerCase();
    return unit === '%' || unit in SVG_UNITS ? { value: Number(match[1]), unit } : null;
  };
  let viewBox = null;
  if (attributes.viewBox !== undefined) {
    const numbers = attributes.viewBox.trim().split(/\s*,\s*|\s+/).map(Number);
    if (numbers.length === 4 && numbers.every(Number.isFinite)) viewBox = numbers;
  }
  return { width: length(attributes.width), height: length(attributes.height), viewBox };
}

function doctypeEnd(text, at) {
  let quote = null;
  let depth = 0;
  for (let i = at + 2; i < text.length; i++) {
    const c = text[i];
    if (quote) { if (c === quote) quote = null; continue; }
    if (c === '"' || c === "'") quote = c;
    else if (c === '[') depth++;
    else if (c === ']') depth--;
    else if (c === '>' && depth <= 0) return i + 1;
  }
  return 0;
}

// --- image-size 2.x ---------------------------------------------------------------------------

/** image-size 2.x's `types`, in its order. */
export const IMAGE_SIZE_TYPES = Object.freeze(['bmp', 'cur', 'dds', 'gif', 'heif', 'icns', 'ico', 'j2c', 'jp2', 'jpg', 'jxl',
  'jxl-stream', 'ktx', 'png', 'pnm', 'psd', 'svg', 'tga', 'tiff', 'webp']);

/**
 * image-size's two names for a file: `detected`, the entry of `types` it files the format under
 * (what disableTypes() takes), and `type`, the name in its result, which is finer for HEIF (the
 * major brand), KTX (`ktx2`), TIFF (`bigtiff`) and JPEG XL (`jxl-stream` for a bare
 * codestream). A format image-size lacks keeps imageprobe's name (SPEC.md §3) in both.
 */
export function imageSizeNames(format, head) {
  switch (format) {
    case 'jpeg': return { detected: 'jpg', type: 'jpg' };
    case 'j2k': return { detected: 'j2c', type: 'j2c' };
    case 'pfm': return { detected: 'pnm', type: 'pnm' };
    case 'ktx2': return { detected: 'ktx', type: 'ktx2' };
    case 'jxl': {
      const name = head[0] === 0xFF ? 'jxl-stream' : 'jxl';
      return { detected: name, type: name };
    }
    case 'tiff': return { detected: 'tiff', type: head[2] === 43 || head[3] === 43 ? 'bigtiff' : 'tiff' };
    case 'heif': case 'avif': {
      const brand = head.length >= 12 ? ascii(head, 8, 12) : '';
      return { detected: 'heif', type: /^[\x20-\x7e]{4}$/.test(brand) ? brand : format };
    }
    default: return { detected: format, type: format };
  }
}

/** image-size's word for each format in its messages ("Invalid PNG"), where it differs from upper case. */
const IMAGE_SIZE_LABELS = { jpg: 'JPG', heif: 'HEIF', icns: 'ICNS', tiff: 'Tiff', webp: 'WebP', svg: 'SVG', 'jxl-stream': 'JXL' };

/** The TypeError image-size throws for a file imageprobe can't read, with the ImageProbeError as its cause. */
export function imageSizeError(error, head) {
  if (!error.detectedFormat) return new TypeError('unsupported file type: undefined', { cause: error });
  let { detected } = imageSizeNames(error.detectedFormat, head);
  if (detected === 'pnm' && head[0] === 0x50 && head[1] === 0x37) detected = 'PAM';
  return new TypeError(`Invalid ${IMAGE_SIZE_LABELS[detected] ?? detected.toUpperCase()}`, { cause: error });
}

/**
 * image-size's result for imageprobe's answer and the file's first bytes: { width, height,
 * type, orientation?, images? }. HEIF and AVIF sizes are the clean aperture's (image-size's
 * reading of `clap`), before any rotation; `images` lists an icon's entries and a HEIF's
 * `ispe` properties when there are several, as image-size does.
 */
export function imageSizeResult(info, head, entries = null) {
  const { type } = imageSizeNames(info.format, head);
  let { width, height } = info;
  let images = entries;
  if (info.format === 'heif' || info.format === 'avif') {
    const turned = info.orientation !== null && info.orientation >= 5;
    width = turned ? info.displayHeight : info.displayWidth;
    height = turned ? info.displayWidth : info.displayHeight;
    images = heifMeta(head).images;
  } else if (info.format === 'ico' || info.format === 'cur') {
    images = iconEntries(head);
  }
  const result = { height, width, type };
  if (info.orientation !== null) result.orientation = info.orientation;
  if (images && images.length > 1) result.images = images;
  return result;
}

/**
 * image-size's calls over imageprobe's public API: `api` is { probeSync, Scanner } (the module
 * loaded), `fs` Node's fs.promises for imageSizeFromFile (absent elsewhere).
 */
export function createCompat(api, fs = null) {
  let disabled = [];
  let concurrency = 100;
  let running = 0;
  const waiting = [];

  function checkEnabled(format, head) {
    const { detected } = imageSizeNames(format, head);
    if (disabled.includes(detected)) throw new TypeError(`disabled file type: ${detected}`);
  }

  /** image-size's imageSize(input): synchronous; its result shape; a TypeError when unreadable. */
  function imageSize(input) {
    if (typeof input === 'string') {
      throw new TypeError('imageSize() takes bytes (a Uint8Array or Buffer); for a path use imageSizeFromFile() from image-size/fromFile');
    }
    const bytes = input instanceof Uint8Array ? input : ArrayBuffer.isView(input)
      ? new Uint8Array(input.buffer, input.byteOffset, input.byteLength) : new Uint8Array(input);
    let info;
    try {
      info = api.probeSync(bytes);
    } catch (error) {
      if (error?.name !== 'ImageProbeError' || error.code === 'notLoaded' || error.code === 'trap') throw error;
      if (error.detectedFormat) checkEnabled(error.detectedFormat, bytes);
      throw imageSizeError(error, bytes);
    }
    checkEnabled(info.format, bytes);
    if (!peersReadSize(info)) throw new TypeError('Invalid SVG');
    const entries = info.format === 'icns' ? listFromBytes(icnsEntries(), bytes) : null;
    return imageSizeResult(info, bytes, entries);
  }

  async function turn() {
    if (running >= concurrency) await new Promise((resolve) => waiting.push(resolve));
    running++;
  }
  function done() {
    running--;
    waiting.shift()?.();
  }

  /**
   * image-size's imageSizeFromFile(path) (Node): the file opened once, read as the Swift
   * command reads it (64 KiB reads, long skips jumped) rather than its first 512 KiB, and closed.
   * Errors from the file system are Node's own (ENOENT...), as image-size's are.
   */
  async function imageSizeFromFile(path) {
    if (!fs) throw new TypeError('imageSizeFromFile() needs Node.js');
    await turn();
    try {
      const handle = await fs.open(path, 'r');
      try {
        const { size } = await handle.stat();
        if (size <= 0) throw new Error('Empty file');
        const { result, head } = await scanHandle(api, handle, size);
        if (result.status !== 'done') {
          const error = result.error;
          if (error.detectedFormat) checkEnabled(error.detectedFormat, head);
          throw imageSizeError(error, head);
        }
        checkEnabled(result.info.format, head);
        if (!peersReadSize(result.info)) throw new TypeError('Invalid SVG');
        const entries = result.info.format === 'icns'
          ? await listFromReader(icnsEntries(), (at, n) => readAt(handle, at, n)) : null;
        return imageSizeResult(result.info, head, entries);
      } finally {
        await handle.close();
      }
    } finally {
      done();
    }
  }

  /** image-size's setConcurrency(n): files open at once in imageSizeFromFile (default 100). */
  function setConcurrency(value) {
    concurrency = Math.max(1, Math.floor(Number(value)) || 1);
    while (running < concurrency && waiting.length) waiting.shift()();
  }

  /** image-size's disableTypes(types): those names of `types` then throw "disabled file type". */
  function disableTypes(types) { disabled = Array.from(types); }

  return { imageSize, imageSizeFromFile, setConcurrency, disableTypes, types: [...IMAGE_SIZE_TYPES] };
}

async function readAt(handle, position, length) {
  const buffer = new Uint8Array(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

/**
 * Scans an open file (a Node FileHandle) with the public Scanner: 64 KiB positioned reads,
 * never more fed than the scanner asks for, pending skips jumped. Returns the final result and
 * the first read (`head`, up to HEAD_SIZE bytes) for the listings. The read buffer is made
 * before anything else, so a failed allocation leaves nothing but the handle to close.
 */
export async function scanHandle(api, handle, size) {
  const buffer = new Uint8Array(HEAD_SIZE);
  const scanner = new api.Scanner({ inputLength: size });
  let head = null;
  try {
    let position = 0;
    let chunk = new Uint8Array(0);
    let start = 0;
    let result = scanner.result;
    while (result.status === 'needMore') {
      // A number, or a BigInt above 2^53 (a hostile box size): skip() takes either.
      const pending = scanner.pendingSkip;
      if (pending > 0) {
        const available = chunk.length - start;
        if (available > 0) {
          start += Number(scanner.skip(pending < available ? pending : available));
        } else {
          // Jumped: the next read starts after it (past the end of any file, for a BigInt).
          position += Number(scanner.skip(pending));
        }
        result = scanner.result;
        continue;
      }
      if (start === chunk.length) {
        if (position >= size) { result = scanner.finish(); break; }
        const { bytesRead } = await handle.read(buffer, 0, HEAD_SIZE, position);
        if (bytesRead === 0) { result = scanner.finish(); break; }
        chunk = buffer.subarray(0, bytesRead);
        if (head === null) head = chunk.slice();
        position += bytesRead;
        start = 0;
      }
      const needed = Number(result.needed);
      const take = Math.min(Math.max(needed, 1), chunk.length - start);
      result = scanner.feed(chunk.subarray(start, start + take));
      start += take;
    }
    return { result, head: head ?? new Uint8Array(0) };
  } finally {
    scanner.dispose();
  }
}
