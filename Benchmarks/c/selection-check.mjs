// Build-time format selection, checked on a WebAssembly module through its raw exports (no
// wrapper): a small file of each format below, made here, is answered with its size when the
// module has the format's parser, and otherwise with IMAGEPROBE_UNSUPPORTED, error
// "unsupportedFeature", the left-out message and the format recognised (detected_format).
//   node Benchmarks/c/selection-check.mjs .build/wasm/imageprobe-web.wasm web
//   node Benchmarks/c/selection-check.mjs .build/wasm/imageprobe-jpeg-png.wasm jpeg,png
//   node Benchmarks/c/selection-check.mjs .build/wasm/imageprobe.wasm all
// The second argument is the selection the module was built with (as IMAGEPROBE_FORMATS takes
// it: format names, `web`, `none`; or `all`). Prints one line per file and "N passed, N failed";
// exits 1 on a failure.
import { readFileSync } from 'node:fs';
import { INFO_FIELDS } from '../../bindings/js/src/fields.mjs';

const [wasmPath, selection] = process.argv.slice(2);
if (!wasmPath || !selection) {
  console.error('usage: node Benchmarks/c/selection-check.mjs MODULE.wasm SELECTION');
  process.exit(2);
}

// formats.tsv: name → parser, and the web column.
const table = readFileSync(new URL('../../Sources/ImageProbe/Registry/formats.tsv', import.meta.url), 'utf8')
  .split('\n').filter((line) => line && !line.startsWith('#')).map((line) => line.split('\t'));
const parserOf = new Map(table.map(([, name, parser]) => [name, parser]));
const selectedParsers = new Set();
for (const name of selection.split(',')) {
  if (name === 'all') table.forEach(([, , parser]) => selectedParsers.add(parser));
  else if (name === 'web') table.filter((row) => row[4] === 'web').forEach(([, , parser]) => selectedParsers.add(parser));
  else if (name === 'none') continue;
  else if (parserOf.has(name)) selectedParsers.add(parserOf.get(name));
  else { console.error(`no format named ${name} in formats.tsv`); process.exit(2); }
}

// Byte builders.
const bytes = (...parts) => Uint8Array.from(parts.flatMap((part) =>
  typeof part === 'string' ? [...part].map((c) => c.charCodeAt(0)) : Array.isArray(part) ? part : [part]));
const be16 = (v) => [v >> 8 & 255, v & 255];
const be32 = (v) => [v >>> 24, v >> 16 & 255, v >> 8 & 255, v & 255];
const le16 = (v) => [v & 255, v >> 8 & 255];
const le32 = (v) => [v & 255, v >> 8 & 255, v >> 16 & 255, v >>> 24];
const zeros = (n) => new Array(n).fill(0);
// The CRC of PNG chunks (ISO 3309), so the files are valid whatever a parser checks.
const crc32 = (data) => {
  let crc = ~0;
  for (const byte of data) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc >>> 1 ^ (crc & 1 ? 0xEDB88320 : 0);
  }
  return ~crc >>> 0;
};
const chunk = (type, data) => { const body = bytes(type, data); return [...be32(data.length), ...body, ...be32(crc32(body))]; };

// name (as in formats.tsv), width, height, bytes.
const samples = [
  ['png', 640, 480, bytes([0x89], 'PNG\r\n\x1a\n', chunk('IHDR', [...be32(640), ...be32(480), 8, 6, 0, 0, 0]),
    chunk('IDAT', [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]), chunk('IEND', []))],
  ['jpeg', 320, 200, bytes(0xFF, 0xD8, 0xFF, 0xE0, be16(16), 'JFIF\0', 1, 1, 0, be16(1), be16(1), 0, 0,
    0xFF, 0xC0, be16(17), 8, be16(200), be16(320), 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1,
    0xFF, 0xDA, be16(12), 3, 1, 0, 2, 0x11, 3, 0x11, 0, 63, 0, 0x00, 0xFF, 0xD9)],
  ['gif', 17, 11, bytes('GIF89a', le16(17), le16(11), 0, 0, 0,
    0x2C, le16(0), le16(0), le16(17), le16(11), 0, 2, 2, 0x4C, 0x01, 0, 0x3B)],
  ['bmp', 21, 13, bytes('BM', le32(54 + 64 * 13), le32(0), le32(54), le32(40), le32(21), le32(13), le16(1), le16(24),
    le32(0), le32(64 * 13), le32(2835), le32(2835), le32(0), le32(0), zeros(64 * 13))],
  ['tga', 33, 22, bytes(0, 0, 2, zeros(5), le16(0), le16(0), le16(33), le16(22), 24, 0x20, zeros(33 * 22 * 3),
    zeros(8), 'TRUEVISION-XFILE.\0')],
  ['psd', 44, 55, bytes('8BPS', be16(1), zeros(6), be16(3), be32(55), be32(44), be16(8), be16(3),
    be32(0), be32(0), be32(0), be16(0), zeros(16))],
  ['qoi', 66, 77, bytes('qoif', be32(66), be32(77), 4, 0, zeros(7), 1)],
];

const module = new WebAssembly.Module(readFileSync(wasmPath));
const { exports: c } = new WebAssembly.Instance(module, {});
const memory = () => new Uint8Array(c.memory.buffer);
const align = (value, to) => Math.ceil(value / to) * to;
const scanner = align(c.__heap_base.value, Number(c.imageprobe_scanner_align()));
const info = align(scanner + Number(c.imageprobe_scanner_size()), 16);
// imageprobe_info's fields, in the struct's order (the package's one list of them); the
// struct's size after the last.
const FIELDS = INFO_FIELDS.map(([name]) => name);
const field = Array.from({ length: FIELDS.length + 1 }, (_, i) => c.imageprobe_info_layout(i));
const data = align(info + field[FIELDS.length], 16);
const [FORMAT, WIDTH, HEIGHT, NAME, ERROR, MESSAGE, DETECTED] =
  ['format', 'width', 'height', 'format_name', 'error', 'message', 'detected_format_name'].map((name) => FIELDS.indexOf(name));
const view = () => new DataView(c.memory.buffer);
const text = (index) => {
  const start = info + field[index];
  const end = memory().indexOf(0, start);
  return new TextDecoder().decode(memory().subarray(start, end));
};
const DONE = 1, UNSUPPORTED = 2;

let passed = 0, failed = 0;
for (const [name, width, height, file] of samples) {
  memory().set(file, data);
  c.imageprobe_init(scanner, 0);
  let status = c.imageprobe_feed(scanner, data, file.length, info);
  if (status === 0) status = c.imageprobe_finish(scanner, info);
  const got = {
    status, format: text(NAME), error: text(ERROR), message: text(MESSAGE), detected: text(DETECTED),
    width: Number(view().getBigInt64(info + field[WIDTH], true)), height: Number(view().getBigInt64(info + field[HEIGHT], true)),
  };
  const included = selectedParsers.has(parserOf.get(name));
  const ok = included
    ? status === DONE && got.format === name && got.width === width && got.height === height
    : status === UNSUPPORTED && got.error === 'unsupportedFeature' && got.detected === name &&
      got.message === 'this build of the scanner leaves the format out';
  const answer = status === DONE ? `done ${got.format} ${got.width}x${got.height}`
    : `status ${status} ${got.error} (${got.message}) detected ${got.detected || '-'}`;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name.padEnd(5)} ${included ? 'in ' : 'out'}  ${answer}`);
  if (ok) passed++; else failed++;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
