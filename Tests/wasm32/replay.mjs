// The scanner where Int is 32 bits: replays inputs through the WebAssembly module (wasm32) and
// compares every answer with the one the 64-bit Swift build gave (SPEC.md §1.10).
//
//   node Tests/wasm32/replay.mjs MODULE.wasm CASES.tsv...
//       Each line of a cases file: file (relative to the cases file), offset of the image in it,
//       mode, maxBytes, maxWidth, maxHeight, maxEntries, maxDepth, inputLength (-1: unknown), and
//       the 64-bit outcome as ScanOutcome.line prints it (ImageProbeFixtures/OutcomeLine.swift).
//       Each input is fed whole, one byte at a time (up to 64 KiB) and in seeded random chunks;
//       every answer must equal the 64-bit one. A trap (RuntimeError) is counted and the module
//       is instantiated afresh. Exit status 1 on any trap or difference.
//
//   node Tests/wasm32/replay.mjs MODULE.wasm --fuzz SECONDS --out DIR CASES.tsv...
//       Mutates the cases' images for SECONDS (values that only matter where Int is 32 bits
//       are favoured: 2^31 and its neighbours, in both byte orders), checks that every chunking
//       gives the same answer without a trap, and writes to DIR/cases.tsv the inputs with new
//       kinds of answer (and any failure), with the module's answer, for `ImageProbeFuzz
//       describe --cases` to answer on 64 bits and this script to compare.
import { readFileSync, writeFileSync, mkdirSync, appendFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { INFO_FIELDS } from '../../bindings/js/src/fields.mjs';

// imageprobe_info's fields, in the struct's order: the package's one list of them.
const FIELDS = INFO_FIELDS.map(([name]) => name);
const MODES = { full: 0, dimensionsOnly: 1, animation: 2 };
const decoder = new TextDecoder();

const args = process.argv.slice(2);
const modulePath = args.shift();
const compiled = new WebAssembly.Module(readFileSync(modulePath));

/** A fresh instance: after a trap the module's stack pointer is not restored, so never reuse it. */
function instantiate() {
  const exports = new WebAssembly.Instance(compiled, {}).exports;
  const offsets = FIELDS.map((_, index) => exports.imageprobe_info_layout(index));
  const end = exports.imageprobe_info_layout(FIELDS.length);
  const at = Object.fromEntries(FIELDS.map((name, index) => [name, offsets[index]]));
  const base = Math.ceil(exports.__heap_base.value / 16) * 16;
  const scanner = base, info = scanner + Math.ceil(exports.imageprobe_scanner_size() / 16) * 16;
  const options = info + Math.ceil(end / 16) * 16, buffer = options + 64;
  const need = buffer + 65536;
  if (need > exports.memory.buffer.byteLength) exports.memory.grow(Math.ceil((need - exports.memory.buffer.byteLength) / 65536));
  return { exports, at, end, scanner, info, options, buffer };
}
let module = instantiate();
// The scanner's budget where Int is 32 bits (the 64-bit build's is in LayoutTests).
if (module.exports.imageprobe_scanner_size() > 640) {
  throw new Error(`the scanner is ${module.exports.imageprobe_scanner_size()} bytes on wasm32, over 640`);
}

/** The outcome line for the info at `module.info` after status `code`, as the Swift build prints it. */
function line(code) {
  const { exports, at, end, info } = module;
  const view = new DataView(exports.memory.buffer, info, end);
  const u64 = (name) => view.getBigUint64(at[name], true);
  const i64 = (name) => view.getBigInt64(at[name], true);
  const i32 = (name) => view.getInt32(at[name], true);
  const i8 = (name) => view.getInt8(at[name]);
  const u8 = (name, index = 0) => view.getUint8(at[name] + index);
  const text = (name, size) => {
    const bytes = new Uint8Array(exports.memory.buffer, info + at[name], size);
    const stop = bytes.indexOf(0);
    return decoder.decode(bytes.subarray(0, stop < 0 ? size : stop));
  };
  const counts = `read=${u64('bytes_read')} skipped=${u64('bytes_skipped')}`;
  if (code === 0) return `needMore ${u64('needed')} ${counts}`;
  if (code === 2) {
    const detected = i32('detected_format') ? text('detected_format_name', 16) : '-';
    return `unsupported ${text('error', 24)} detected=${detected} "${text('message', 128)}" ${counts}`;
  }
  const micros = (name) => {
    const value = view.getFloat64(at[name], true);
    if (Number.isNaN(value)) return '-';
    const scaled = Math.round(value * 1000);
    return scaled >= 0 && scaled < 1.8e19 ? BigInt(scaled).toString() : 'huge';
  };
  const partial = i8('is_partial') === 1 ? `${text('error', 24)} "${text('message', 128)}"` : '-';
  return `done ${text('format_name', 16)} ${i64('width')}x${i64('height')} display=${i64('display_width')}x${i64('display_height')}`
    + ` orientation=${i32('orientation')} depth=${i32('bit_depth')}`
    + ` alpha=${i8('has_alpha')} progressive=${i8('is_progressive')} animated=${i8('is_animated')}`
    + ` frames=${i64('frame_count')} loops=${i64('loop_count')}`
    + ` duration=${micros('duration_ms')} playback=${micros('playback_duration_ms')}`
    + ` preview=${text('eps_preview', 8) || '-'}`
    + ` dpi=${i32('dpi_x') > 0 && i32('dpi_y') > 0 ? `${i32('dpi_x')}x${i32('dpi_y')}` : '-'}`
    + ` cicp=${u8('has_cicp') ? [0, 1, 2, 3].map((k) => u8('cicp', k)).join('/') : '-'}`
    + ` icc=${i8('icc_profile')} gainmap=${i8('gain_map')} interlaced=${i8('interlaced')}`
    + ` motion=${i8('motion_photo')} partial=${partial} ${counts}`;
}

/** Scans `image` under `options`, fed in chunks of the sizes `sizes()` gives; returns the line. */
function scan(image, options, sizes) {
  const { exports, scanner, info, buffer } = module;
  const view = new DataView(exports.memory.buffer, module.options, 48);
  view.setInt32(0, MODES[options.mode], true);
  view.setBigUint64(8, BigInt(options.maxBytes), true);
  view.setBigUint64(16, BigInt(Math.max(0, options.inputLength)), true);
  view.setUint32(24, options.maxWidth, true);
  view.setUint32(28, options.maxHeight, true);
  view.setUint32(32, options.maxEntries, true);
  view.setUint32(36, options.maxDepth, true);
  exports.imageprobe_init(scanner, module.options);
  let code = exports.imageprobe_feed(scanner, 0, 0, info);
  let offset = 0;
  while (code === 0 && offset < image.length) {
    const take = Math.min(sizes(), image.length - offset, 65536);
    new Uint8Array(exports.memory.buffer, buffer, take).set(image.subarray(offset, offset + take));
    code = exports.imageprobe_feed(scanner, buffer, take, info);
    offset += take;
  }
  if (code === 0) code = exports.imageprobe_finish(scanner, info);
  return line(code);
}

let seed = 0x5eed;
const random = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };

/** The answers under three chunkings, or a thrown trap. */
function answers(image, options) {
  const whole = scan(image, options, () => 65536);
  const found = [whole];
  if (image.length <= 65536) found.push(scan(image, options, () => 1));
  found.push(scan(image, options, () => 1 + Math.floor(random() * 97)));
  return found;
}

/** Options the C interface can express (0 means "the default" there). */
function expressible(options) {
  return options.maxBytes > 0 && options.maxWidth > 0 && options.maxHeight > 0 && options.maxEntries > 0
    && options.maxDepth > 0 && options.inputLength !== 0;
}

/** The one difference SPEC.md §1.10 allows: a size above Int.max, which no limit admits where
    Int is 32 bits, is limitExceeded there. */
function beyondInt32(expected, answer) {
  const size = expected.match(/^done \S+ (\d+)x(\d+) /);
  return size !== null && (Number(size[1]) > 2 ** 31 - 1 || Number(size[2]) > 2 ** 31 - 1)
    && answer.startsWith('unsupported limitExceeded ') && answer.includes('"image larger than maxWidth or maxHeight"');
}

function readCases(path) {
  const cases = [];
  for (const text of readFileSync(path, 'utf8').split('\n')) {
    if (!text) continue;
    const [file, offset, mode, maxBytes, maxWidth, maxHeight, maxEntries, maxDepth, inputLength, expected] = text.split('\t');
    cases.push({ file: file.startsWith('/') ? file : join(dirname(path), file), offset: Number(offset), expected,
      options: { mode, maxBytes: Number(maxBytes), maxWidth: Number(maxWidth), maxHeight: Number(maxHeight),
        maxEntries: Number(maxEntries), maxDepth: Number(maxDepth), inputLength: Number(inputLength) } });
  }
  return cases;
}

const columns = (o) => [o.mode, o.maxBytes, o.maxWidth, o.maxHeight, o.maxEntries, o.maxDepth, o.inputLength].join('\t');

function replay(paths) {
  let checked = 0, skipped = 0, traps = 0, differences = 0, explained = 0;
  const seen = new Set();
  for (const path of paths) {
    for (const entry of readCases(path)) {
      const key = `${entry.file}\t${entry.offset}\t${columns(entry.options)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (!expressible(entry.options)) { skipped++; continue; }
      const image = new Uint8Array(readFileSync(entry.file)).subarray(entry.offset);
      checked++;
      let found;
      try {
        found = answers(image, entry.options);
      } catch (error) {
        traps++;
        console.log(`TRAP ${entry.file} (${entry.options.mode}): ${error}`);
        module = instantiate();
        continue;
      }
      const wrong = found.filter((answer) => answer !== entry.expected);
      if (wrong.length && wrong.every((answer) => beyondInt32(entry.expected, answer))) {
        explained++;
      } else if (wrong.length) {
        differences++;
        if (differences <= 20) console.log(`DIFFERS ${entry.file} (${entry.options.mode}):\n  64-bit: ${entry.expected}\n  wasm32: ${wrong[0]}`);
      }
    }
  }
  console.log(`wasm32 replay: ${checked} inputs (each whole, by the byte and in random chunks), ${traps} traps, ${differences} differ from 64-bit`
    + ` (and ${explained} sizes above Int.max that SPEC.md §1.10 refuses there); ${skipped} with limits the C interface can't express`);
  return traps === 0 && differences === 0;
}

// Values that only matter where Int is 32 bits, and the usual suspects.
const WORDS = [0x80000000, 0x7fffffff, 0xffffffff, 0x80000001, 0xfffffffe, 0x40000000, 0x00010000, 0, 1];

/** Offsets where a 32-bit field in either byte order holds a small number: likely a count, a
    length or a size, which is where a value past Int.max does harm. */
function numberFields(image) {
  const fields = [];
  const view = new DataView(image.buffer, image.byteOffset, image.length);
  for (let at = 0; at + 4 <= image.length; at++) {
    const big = view.getUint32(at, false), little = view.getUint32(at, true);
    if (big > 0 && big < 65536) fields.push([at, false]);
    if (little > 0 && little < 65536) fields.push([at, true]);
  }
  return fields;
}

function mutate(source, fields) {
  const image = Uint8Array.from(source);
  const rounds = 1 + Math.floor(random() * 4);
  let bytes = image;
  for (let round = 0; round < rounds && bytes.length > 0; round++) {
    const at = Math.floor(random() * bytes.length);
    switch (Math.floor(random() * 6)) {
      case 0: bytes[at] ^= 1 << Math.floor(random() * 8); break;
      case 1: bytes[at] = Math.floor(random() * 256); break;
      case 2: if (fields.length) {  // a value past Int.max into a field that holds a number
        const [field, little] = fields[Math.floor(random() * fields.length)];
        if (field + 4 <= bytes.length) {
          new DataView(bytes.buffer, bytes.byteOffset, bytes.length).setUint32(field, WORDS[Math.floor(random() * 5)], little);
        }
        break;
      }
      // falls through
      case 3: {  // a 32-bit value in either byte order, or its high half as 16 bits
        const value = WORDS[Math.floor(random() * WORDS.length)];
        const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
        const little = random() < 0.5;
        if (at + 4 <= bytes.length) view.setUint32(at, value, little);
        else if (at + 2 <= bytes.length) view.setUint16(at, value >>> 16, little);
        break;
      }
      case 4: {  // decimal digits, for the text formats
        const digits = new TextEncoder().encode(String(WORDS[Math.floor(random() * 3)]));
        const grown = new Uint8Array(bytes.length + digits.length);
        grown.set(bytes.subarray(0, at));
        grown.set(digits, at);
        grown.set(bytes.subarray(at), at + digits.length);
        bytes = grown;
        break;
      }
      default: {  // cut or drop a run
        const length = Math.min(bytes.length - at, 1 + Math.floor(random() * 16));
        bytes = random() < 0.5 ? bytes.subarray(0, at) : Uint8Array.from([...bytes.subarray(0, at), ...bytes.subarray(at + length)]);
      }
    }
  }
  return bytes;
}

function fuzz(seconds, out, paths) {
  mkdirSync(out, { recursive: true });
  const seeds = paths.flatMap(readCases).filter((entry) => expressible(entry.options))
    .map((entry) => ({ ...entry, image: new Uint8Array(readFileSync(entry.file)).subarray(entry.offset) }))
    .filter((entry) => entry.image.length <= 1 << 16)
    .map((entry) => ({ ...entry, fields: numberFields(entry.image) }));
  const kinds = new Set();
  let runs = 0, traps = 0, inconsistent = 0, saved = 0;
  const stop = Date.now() + seconds * 1000;
  while (Date.now() < stop) {
    for (let batch = 0; batch < 200; batch++) {
      const seedCase = seeds[Math.floor(random() * seeds.length)];
      const options = { ...seedCase.options };
      if (random() < 0.2) options.mode = ['full', 'dimensionsOnly', 'animation'][Math.floor(random() * 3)];
      options.inputLength = -1;
      const image = mutate(seedCase.image, seedCase.fields);
      runs++;
      let found, failure = null;
      try {
        found = answers(image, options);
        if (new Set(found).size !== 1) { inconsistent++; failure = 'chunkings differ'; }
      } catch (error) {
        traps++;
        failure = String(error);
        module = instantiate();
        found = [failure];
      }
      // A kind: the status, format and error, and whether any number reached 2^31.
      const words = found[0].split(' ');
      const big = (found[0].match(/\d+/g) ?? []).some((digits) => Number(digits) >= 2 ** 31);
      const kind = `${words[0]} ${words[1]} ${words[2]?.startsWith('detected') ? words[2] : ''} ${big}`;
      if (failure || !kinds.has(kind)) {
        kinds.add(kind);
        const name = `wasm32-${runs}.bin`;
        writeFileSync(join(out, name), image);
        appendFileSync(join(out, 'cases.tsv'), `${name}\t0\t${columns(options)}\t${found[0]}\n`);
        saved++;
        if (failure) console.log(`FAIL ${name}: ${failure}`);
      }
    }
  }
  console.log(`wasm32 fuzz: ${runs} inputs in ${seconds} s (each whole, by the byte and in random chunks), ${traps} traps, ${inconsistent} answers that depend on the chunking; ${saved} inputs saved to ${out}`);
  return traps === 0 && inconsistent === 0;
}

let passed;
if (args[0] === '--fuzz') {
  const seconds = Number(args[1]);
  const out = args[3];
  passed = fuzz(seconds, out, args.slice(4));
} else {
  passed = replay(args);
}
process.exitCode = passed ? 0 : 1;
