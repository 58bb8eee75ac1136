// compat.mjs: image-size's calls over imageprobe, so moving from image-size is one changed import:
//
//   import { imageSize } from 'image-size';          // before
//   import { imageSize } from 'imageprobe/compat';   // after
//
// imageSize(input) returns image-size 2.x's shape ({ width, height, type, orientation, images })
// and throws a TypeError for what it can't read, as image-size does. The scanner is imageprobe's:
// bounded, streaming-safe, and right on more files (bindings/js/BENCHMARKS.md).

// image-size's names where they differ from imageprobe's (SPEC.md §3).
const TYPE_NAMES = { jpeg: 'jpg', j2k: 'j2c' };
// image-size 2.x names HEIF files by their major brand.
const HEIF_BRANDS = { avif: 'avif', avis: 'avif', mif1: 'heif', msf1: 'heif', heic: 'heic', heix: 'heic', hevc: 'heic', hevx: 'heic' };

const ascii = (bytes, start, end) => String.fromCharCode(...bytes.subarray(start, end));

/** The entries of an ICO or CUR directory, as image-size lists them in `images`. */
function iconEntries(bytes) {
  if (bytes.length < 6) return undefined;
  const entries = bytes[4] | (bytes[5] << 8);
  if (entries < 2) return undefined;
  const images = [];
  for (let index = 0; index < entries && 6 + index * 16 + 2 <= bytes.length; index++) {
    const at = 6 + index * 16;
    images.push({ width: bytes[at] || 256, height: bytes[at + 1] || 256 });
  }
  return images;
}

function typeName(info, bytes) {
  if (info.format === 'jxl') return bytes[0] === 0xFF ? 'jxl-stream' : 'jxl';
  if (info.format === 'heif' || info.format === 'avif') {
    const brand = bytes.length >= 12 ? ascii(bytes, 8, 12) : '';
    return HEIF_BRANDS[brand] ?? info.format;
  }
  return TYPE_NAMES[info.format] ?? info.format;
}

/** image-size's calls over an API: { probeSync, probeFile, readHead(path, count) (files' first bytes; Node) }. */
export function createCompat(api) {
  let disabled = [];

  /** image-size's imageSize(input): synchronous, image-size's result shape; TypeError when unreadable. */
  function imageSize(input) {
    if (typeof input === 'string') {
      throw new TypeError('imageprobe/compat: imageSize() takes bytes (a Uint8Array or Buffer); for a path use imageSizeFromFile()');
    }
    const bytes = input instanceof Uint8Array ? input : new Uint8Array(input.buffer ?? input, input.byteOffset ?? 0, input.byteLength);
    let info;
    try {
      info = api.probeSync(bytes);
    } catch (error) {
      if (error?.name !== 'ImageProbeError') throw error;
      if (error.code === 'notLoaded') throw error;
      const seen = error.detectedFormat ? typeName({ format: error.detectedFormat }, bytes) : undefined;
      throw new TypeError(`unsupported file type: ${seen} (${error.code}: ${error.message})`, { cause: error });
    }
    const type = typeName(info, bytes);
    if (disabled.includes(type)) throw new TypeError(`disabled file type: ${type}`);
    const result = { height: info.height, width: info.width, type };
    if (info.orientation !== null) result.orientation = info.orientation;
    const images = info.format === 'ico' || info.format === 'cur' ? iconEntries(bytes) : undefined;
    if (images) result.images = images;
    return result;
  }

  /** image-size's imageSizeFromFile(path) (Node): the file read as the Swift command reads it, not 512 KiB of it. */
  async function imageSizeFromFile(path) {
    try {
      const info = await api.probeFile(path);
      // The brand or the JPEG XL signature names image-size's type: 12 bytes from the platform.
      const named = info.format === 'jxl' || info.format === 'heif' || info.format === 'avif';
      const head = named && api.readHead ? await api.readHead(path, 12) : new Uint8Array(0);
      const type = typeName(info, head);
      if (disabled.includes(type)) throw new TypeError(`disabled file type: ${type}`);
      const result = { height: info.height, width: info.width, type };
      if (info.orientation !== null) result.orientation = info.orientation;
      return result;
    } catch (error) {
      if (error?.name !== 'ImageProbeError') throw error;
      if (error.code === 'io') throw error.cause ?? error;
      throw new TypeError(`unsupported file type: ${error.detectedFormat ?? undefined} (${error.code}: ${error.message})`, { cause: error });
    }
  }

  /** image-size's disableTypes(types). */
  function disableTypes(types) { disabled = Array.from(types); }

  /** image-size's list of types, with imageprobe's names for the formats image-size lacks. */
  const types = ['bmp', 'cur', 'dds', 'gif', 'heif', 'icns', 'ico', 'j2c', 'jp2', 'jpg', 'jxl', 'jxl-stream', 'ktx', 'png',
    'pnm', 'psd', 'svg', 'tga', 'tiff', 'webp', 'avif', 'heic', 'ktx2', 'pfm', 'qoi', 'exr', 'hdr', 'pcx', 'sgi', 'sun', 'xbm',
    'eps', 'xpm', 'fits', 'dcx', 'msp', 'blp', 'pvr', 'pkm', 'astc', 'farbfeld', 'vtf', 'ilbm', 'aseprite'];

  return { imageSize, imageSizeFromFile, disableTypes, types };
}
