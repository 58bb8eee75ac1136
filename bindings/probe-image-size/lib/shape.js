'use strict';
// probe-image-size's result for imageprobe's answer: { width, height, type, mime, wUnits,
// hUnits }, `variants` (an ICO's entries, always; a HEIF's `ispe` sizes when there are
// several) and `orientation` (JPEG, WebP, HEIF and AVIF, as probe-image-size reads it, and
// every format it doesn't read at all). The size is the stored one, before orientation and
// cropping, as probe-image-size documents; SVG keeps the units its attributes are written in.
const { compat } = require('../dist/imageprobe.cjs');

/** probe-image-size's type and media type for the formats it reads (HEIF and AVIF: by brand). */
const NAMES = {
  jpeg: ['jpg', 'image/jpeg'], png: ['png', 'image/png'], gif: ['gif', 'image/gif'], bmp: ['bmp', 'image/bmp'],
  webp: ['webp', 'image/webp'], tiff: ['tiff', 'image/tiff'], psd: ['psd', 'image/vnd.adobe.photoshop'],
  ico: ['ico', 'image/x-icon'], svg: ['svg', 'image/svg+xml'],
};
/** The formats whose orientation probe-image-size leaves out (it reads none from them). */
const UNORIENTED = new Set(['png', 'gif', 'bmp', 'tiff', 'psd', 'ico', 'svg']);

/** probe-image-size's names for a HEIF or AVIF file, from its `ftyp` brands. */
function heifNames(head, format) {
  const size = head.length >= 8 ? ((head[0] << 24) | (head[1] << 16) | (head[2] << 8) | head[3]) >>> 0 : 0;
  const brands = [];
  for (let at = 8; at + 4 <= Math.min(size, head.length); at += 4) {
    if (at !== 12) brands.push(String.fromCharCode(...head.subarray(at, at + 4)));
  }
  const [major] = brands;
  const has = (...names) => names.some((name) => brands.includes(name));
  if (major === 'avif' || major === 'avis' || major === 'avio') return ['avif', 'image/avif'];
  if (major === 'heic' || major === 'heix') return ['heic', 'image/heic'];
  if (major === 'hevc' || major === 'hevx') return ['heic', 'image/heic-sequence'];
  if (has('avif', 'avis')) return ['avif', 'image/avif'];
  if (has('heic', 'heix', 'hevc', 'hevx', 'heis')) return has('msf1') ? ['heif', 'image/heif-sequence'] : ['heif', 'image/heif'];
  return format === 'avif' ? ['avif', 'image/avif'] : ['heif', 'image/heif'];
}

/**
 * An SVG's size in the units written, when its attributes say it as probe-image-size reads
 * them and agree with the core's answer (in pixels, rounded); else the core's pixels.
 */
function svgSize(info, head) {
  const pixels = { width: info.width, height: info.height, wUnits: 'px', hUnits: 'px' };
  const attributes = compat.svgAttributes(head);
  if (!attributes) return pixels;
  const absolute = (length) => (length && length.unit !== '%' && length.value > 0 ? length : null);
  const width = absolute(attributes.width);
  const height = absolute(attributes.height);
  const box = attributes.viewBox && attributes.viewBox[2] > 0 && attributes.viewBox[3] > 0 ? attributes.viewBox : null;
  const unit = (length) => length.unit || 'px';
  let size = null;
  if (width && height) size = { width: width.value, height: height.value, wUnits: unit(width), hUnits: unit(height) };
  else if (width && box) size = { width: width.value, height: width.value * box[3] / box[2], wUnits: unit(width), hUnits: unit(width) };
  else if (height && box) size = { width: height.value * box[2] / box[3], height: height.value, wUnits: unit(height), hUnits: unit(height) };
  else if (!attributes.width && !attributes.height && box) size = { width: box[2], height: box[3], wUnits: 'px', hUnits: 'px' };
  if (!size) return pixels;
  const inPixels = (value, name) => value * compat.SVG_UNITS[name === 'px' ? '' : name];
  const agrees = Math.abs(inPixels(size.width, size.wUnits) - info.width) <= 1 && Math.abs(inPixels(size.height, size.hUnits) - info.height) <= 1;
  return agrees ? size : pixels;
}

/**
 * The result for `info` (imageprobe's answer), `head` (the input's first bytes, as far as
 * read) and `bytesAt(offset, length)`, the input's bytes there if they were read (a HEIF's
 * Exif item), else null.
 */
function shape(info, head, bytesAt) {
  if (!compat.peersReadSize(info)) return null;
  const format = info.format;
  let [type, mime] = NAMES[format] ?? [format === 'jpeg' ? 'jpg' : format, info.mime];
  let variants = null;
  let orientation = UNORIENTED.has(format) ? null : info.orientation;
  if (format === 'heif' || format === 'avif') {
    [type, mime] = heifNames(head, format);
    const meta = compat.heifMeta(head);
    if (meta.sizes.length > 1) variants = meta.sizes;
    const item = meta.exif && bytesAt(meta.exif.offset, meta.exif.length);
    const fromExif = item ? compat.exifItemOrientation(item) : null;
    if (fromExif !== null) orientation = fromExif;
  } else if (format === 'ico' || format === 'cur') {
    const entries = compat.iconEntries(head);
    if (entries.length > 0) variants = entries;
  }
  const size = format === 'svg' ? svgSize(info, head) : { width: info.width, height: info.height, wUnits: 'px', hUnits: 'px' };
  if (!(size.width > 0 && size.height > 0)) return null;
  const result = { width: size.width, height: size.height, type, mime, wUnits: size.wUnits, hUnits: size.hUnits };
  if (variants) result.variants = variants;
  if (orientation !== null && orientation !== undefined) result.orientation = orientation;
  return result;
}

/** Where a HEIF's Exif item is, for the stream and URL readers that may read on to it. */
function exifLocation(info, head) {
  return info.format === 'heif' || info.format === 'avif' ? compat.heifMeta(head).exif : null;
}

module.exports = { shape, exifLocation, HEAD_SIZE: compat.HEAD_SIZE };
