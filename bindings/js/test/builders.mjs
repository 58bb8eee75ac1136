// Byte builders for the drop-in packages' tests (bindings/image-size, bindings/probe-image-size):
// small, valid headers of the formats whose peer shapes differ from imageprobe's answer (an
// icon's entries, a HEIF's clean aperture and Exif item, SVG units, a JPEG's orientation).
// Pixel data is a placeholder: no reader under test decodes it.

const text = (value) => new TextEncoder().encode(value);
const be16 = (value) => [(value >> 8) & 255, value & 255];
const be32 = (value) => [(value >>> 24) & 255, (value >>> 16) & 255, (value >>> 8) & 255, value & 255];
const le16 = (value) => [value & 255, (value >> 8) & 255];
const le32 = (value) => [value & 255, (value >> 8) & 255, (value >> 16) & 255, (value >>> 24) & 255];

export function concat(...parts) {
  const arrays = parts.map((part) => (part instanceof Uint8Array ? part : Uint8Array.from(part)));
  const out = new Uint8Array(arrays.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of arrays) { out.set(part, at); at += part.length; }
  return out;
}

/** A little-endian TIFF structure whose IFD0 holds an Orientation (and, optionally, a size). */
export function tiff({ orientation = null, width = null, height = null } = {}) {
  const entries = [];
  if (width !== null) entries.push([256, 4, 1, width]);
  if (height !== null) entries.push([257, 4, 1, height]);
  if (orientation !== null) entries.push([274, 3, 1, orientation]);
  return concat(text('II'), le16(42), le32(8), le16(entries.length),
    ...entries.map(([tag, type, count, value]) => [...le16(tag), ...le16(type), ...le32(count), ...le32(value)]), le32(0));
}

/** A baseline JPEG: SOI, an Exif APP1 (when orientation is given), SOF0 with `components`, EOI. */
export function jpeg({ width, height, orientation = null, components = 3 }) {
  const segment = (marker, payload) => concat([0xFF, marker], be16(payload.length + 2), payload);
  const app1 = orientation === null ? [] : segment(0xE1, concat(text('Exif\0\0'), tiff({ orientation })));
  const sof = segment(0xC0, concat([8], be16(height), be16(width), [components],
    ...Array.from({ length: components }, (_, index) => [index + 1, 0x11, 0])));
  return concat([0xFF, 0xD8], app1, sof, [0xFF, 0xD9]);
}

/** A PNG's signature and IHDR (colour type 6: RGBA), then IEND. */
export function png({ width, height, colourType = 6 }) {
  const chunk = (type, payload) => concat(be32(payload.length), text(type), payload, [0, 0, 0, 0]);
  return concat([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
    chunk('IHDR', concat(be32(width), be32(height), [8, colourType, 0, 0, 0])), chunk('IEND', []));
}

/** An ICO (type 1) or CUR (type 2) directory of `sizes` ([width, height]; 256 is stored as 0). */
export function icon(sizes, type = 1) {
  const directory = 6 + 16 * sizes.length;
  return concat([0, 0], le16(type), le16(sizes.length),
    ...sizes.map(([width, height], index) => [width & 255, height & 255, 0, 0, ...le16(1), ...le16(32),
      ...le32(40), ...le32(directory + 40 * index)]),
    new Uint8Array(40 * sizes.length));
}

/** An ICNS family of elements [type, data length]. */
export function icns(elements) {
  const parts = elements.map(([type, length]) => concat(text(type), be32(8 + length), new Uint8Array(length)));
  const total = 8 + parts.reduce((sum, part) => sum + part.length, 0);
  return concat(text('icns'), be32(total), ...parts);
}

const box = (type, ...payload) => {
  const body = concat(...payload);
  return concat(be32(8 + body.length), text(type), body);
};
const fullBox = (type, version, ...payload) => box(type, [version, 0, 0, 0], ...payload);

/**
 * A HEIF (or AVIF, by `brand`): a primary item 1 with its `ispe` and, optionally, a `clap`, an
 * `irot`, a second image item (a thumbnail: `thumbnail` [width, height]) and an Exif item whose
 * IFD0 holds `exifOrientation`, stored in `mdat` after the image's `imageBytes`.
 */
export function heif({ brand = 'heic', compatible = ['mif1', 'heic'], width, height, clap = null, irot = null,
  thumbnail = null, exifOrientation = null, imageBytes = 16 }) {
  const codec = brand === 'avif' ? 'av01' : 'hvc1';
  const properties = [fullBox('ispe', 0, be32(width), be32(height))];
  const primary = [1];
  if (clap) {
    properties.push(box('clap', be32(clap[0]), be32(1), be32(clap[1]), be32(1), be32(0), be32(1), be32(0), be32(1)));
    primary.push(properties.length);
  }
  if (irot !== null) {
    properties.push(box('irot', [irot]));
    primary.push(properties.length);
  }
  const associations = [[1, primary]];
  const items = [[1, codec]];
  if (thumbnail) {
    properties.push(fullBox('ispe', 0, be32(thumbnail[0]), be32(thumbnail[1])));
    items.push([2, codec]);
    associations.push([2, [properties.length]]);
  }
  const exif = exifOrientation === null ? null : concat(be32(0), tiff({ orientation: exifOrientation }));
  if (exif) items.push([3, 'Exif']);
  const infe = items.map(([id, type]) => fullBox('infe', 2, be16(id), be16(0), text(type), [0]));
  const iinf = fullBox('iinf', 0, be16(items.length), ...infe);
  const ipma = fullBox('ipma', 0, be32(associations.length),
    ...associations.map(([id, list]) => [...be16(id), list.length, ...list.map((index) => 0x80 | index)]));
  const iprp = box('iprp', box('ipco', ...properties), ipma);
  const ftyp = box('ftyp', text(brand), be32(0), ...compatible.map(text));
  // iloc (version 0, 4-byte offsets and lengths): each item's one extent in mdat.
  const payloads = items.map(([id]) => (id === 3 ? exif : new Uint8Array(id === 1 ? imageBytes : 16)));
  const build = (mdatStart) => {
    let at = mdatStart + 8;
    const entries = items.map(([id], index) => {
      const entry = [...be16(id), ...be16(0), ...be16(1), ...be32(at), ...be32(payloads[index].length)];
      at += payloads[index].length;
      return entry;
    });
    const iloc = fullBox('iloc', 0, [0x44, 0x00], be16(items.length), ...entries);
    return box('meta', [0, 0, 0, 0], fullBox('hdlr', 0, be32(0), text('pict'), new Uint8Array(13)),
      fullBox('pitm', 0, be16(1)), iloc, iinf, iprp);
  };
  const metaLength = build(0).length;
  const meta = build(ftyp.length + metaLength);
  return concat(ftyp, meta, box('mdat', ...payloads));
}

/** An SVG document whose root has `attributes` ([name, value] pairs). */
export function svg(attributes, { prolog = '<?xml version="1.0" encoding="UTF-8"?>\n' } = {}) {
  const list = attributes.map(([name, value]) => ` ${name}="${value}"`).join('');
  return text(`${prolog}<svg xmlns="http://www.w3.org/2000/svg"${list}><rect width="1" height="1"/></svg>\n`);
}

/** A BigTIFF (II, 43) header whose IFD0 gives the size: image-size names it `bigtiff`. */
export function bigTiff({ width, height }) {
  const entry = (tag, value) => [...le16(tag), ...le16(4), ...le32(1), 0, 0, 0, 0, ...le32(value), 0, 0, 0, 0];
  return concat(text('II'), le16(43), le16(8), le16(0), le32(16), le32(0), le32(2), le32(0),
    entry(256, width), entry(257, height), new Uint8Array(8));
}
