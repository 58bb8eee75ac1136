// The installed package (npm pack, then npm install of the tarball into a scratch project):
// ESM import and CJS require, the Swift command's answers on every file given in every mode,
// streams, the compat entry, the CLI, and the audit's defects (which fail on the old wrapper).
// Environment (check.sh sets it): IMAGEPROBE_SWIFT_CLI, IMAGEPROBE_FILES (a file listing the
// inputs), IMAGEPROBE_REPO (the repository), IMAGEPROBE_OLD (the old wrapper's directory).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { createReadStream, readFileSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { deflateSync } from 'node:zlib';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esm from 'imageprobe';
import * as web from 'imageprobe/web';
import * as compat from 'imageprobe/compat';

const require = createRequire(import.meta.url);
const cjs = require('imageprobe');
const cjsCompat = require('imageprobe/compat');
const { jsonLine } = await import(new URL('./json.mjs', import.meta.resolve('imageprobe')));
const swift = process.env.IMAGEPROBE_SWIFT_CLI;
const files = readFileSync(process.env.IMAGEPROBE_FILES, 'utf8').split('\n').filter(Boolean);
const repo = process.env.IMAGEPROBE_REPO;
const packageDir = fileURLToPath(new URL('..', import.meta.resolve('imageprobe')));
const MODES = { full: [], dimensionsOnly: ['--dimensions-only'], animation: ['--animation'] };

/** The Swift command's JSON lines (animation mode: without the two fields the C struct lacks). */
function swiftLines(mode) {
  const out = spawnSync(swift, ['--json', '-j', '4', ...MODES[mode], ...files], { encoding: 'utf8', maxBuffer: 1 << 28 }).stdout;
  return out.trimEnd().split('\n').map((line) => line.replace(/,"largestFrame":\{[^}]*\}/, '').replace(/,"firstDelays":\[[^\]]*\]/, ''));
}
const expected = Object.fromEntries(Object.keys(MODES).map((mode) => [mode, swiftLines(mode)]));

async function lines(api, mode, how) {
  const out = [];
  for (const path of files) {
    try {
      const info = how === 'memory' ? await api.probe(readFileSync(path), { mode })
        : how === 'fileSync' ? api.probeFileSync(path, { mode }) : await api.probeFile(path, { mode });
      out.push(jsonLine(path, { info }, mode));
    } catch (error) {
      if (error?.name !== 'ImageProbeError') throw error;
      out.push(jsonLine(path, { error }, mode));
    }
  }
  return out;
}

function same(actual, wanted, what) {
  assert.equal(actual.length, wanted.length, `${what}: ${actual.length} lines, the command printed ${wanted.length}`);
  const differing = actual.map((line, index) => [line, wanted[index]]).filter(([a, b]) => a !== b);
  assert.deepEqual(differing.slice(0, 3), [], `${what}: ${differing.length} of ${actual.length} lines differ from imageprobe --json`);
}

test('the installed package: ESM and CommonJS, its exports map, version, files and no dependencies', () => {
  const names = ['ImageProbeError', 'Scanner', 'init', 'probe', 'probeFile', 'probeFileSync', 'probeStream', 'probeSync', 'probeURL'];
  assert.deepEqual(Object.keys(esm).sort(), names);
  assert.deepEqual(Object.keys(cjs).sort(), names);
  assert.deepEqual(Object.keys(web).sort(), names);
  assert.match(import.meta.resolve('imageprobe'), /node_modules\/imageprobe\/dist\/node\.mjs$/);
  assert.match(require.resolve('imageprobe'), /node_modules\/imageprobe\/dist\/node\.cjs$/);
  const pkg = JSON.parse(readFileSync(`${packageDir}package.json`, 'utf8'));
  assert.equal(pkg.name, 'imageprobe');
  assert.equal(pkg.sideEffects, false);
  assert.ok(pkg.engines?.node && pkg.bin?.imageprobe && Array.isArray(pkg.files));
  assert.deepEqual(pkg.dependencies ?? {}, {});
  const changelog = readFileSync(`${repo}/CHANGELOG.md`, 'utf8').match(/^## (\d+\.\d+\.\d+)/m)[1];
  assert.equal(pkg.version, changelog, 'package.json version = CHANGELOG.md\'s latest release');
  // Every condition object that names types names them first; every condition is there.
  const walk = (node, where) => {
    if (typeof node !== 'object') return;
    const keys = Object.keys(node);
    if (keys.includes('types')) assert.equal(keys[0], 'types', `${where}: types first`);
    for (const key of keys) walk(node[key], `${where}.${key}`);
  };
  walk(pkg.exports, 'exports');
  for (const entry of ['.', './web', './compat']) {
    assert.deepEqual(Object.keys(pkg.exports[entry]), ['workerd', 'edge-light', 'deno', 'browser', 'node', 'default']);
  }
  for (const file of ['dist/imageprobe.wasm', 'dist/imageprobe-web.wasm', 'dist/index.d.ts', 'dist/cli.mjs', 'LICENSE', 'README.md']) {
    assert.ok(existsSync(`${packageDir}${file}`), `${file} is in the package`);
  }
  // The default path (browsers, Deno, the "default" condition) imports nothing from node:.
  for (const file of ['dist/index.mjs', 'dist/web.mjs', 'dist/core.mjs', 'dist/fields.mjs', 'dist/compat.mjs', 'dist/compat-core.mjs']) {
    const code = readFileSync(`${packageDir}${file}`, 'utf8');
    assert.doesNotMatch(code, /from 'node:|import\('node:|require\(/, `${file} has no node: import`);
  }
  assert.match(readFileSync(`${packageDir}dist/index.mjs`, 'utf8'), /new URL\('\.\/imageprobe\.wasm', import\.meta\.url\)/);
});

for (const mode of Object.keys(MODES)) {
  test(`${mode}: probeFile() (ESM) prints imageprobe --json on every file`, async () => {
    same(await lines(esm, mode, 'file'), expected[mode], `probeFile ${mode}`);
  });
  test(`${mode}: probeFileSync() (ESM) prints imageprobe --json on every file`, async () => {
    same(await lines(esm, mode, 'fileSync'), expected[mode], `probeFileSync ${mode}`);
  });
  test(`${mode}: probe() of the bytes (ESM) prints imageprobe --json on every file, byte counts too`, async () => {
    same(await lines(esm, mode, 'memory'), expected[mode], `probe ${mode}`);
  });
  test(`${mode}: require('imageprobe').probeFile() prints imageprobe --json on every file`, async () => {
    same(await lines(cjs, mode, 'file'), expected[mode], `CommonJS probeFile ${mode}`);
  });
  test(`${mode}: the package's CLI (npx imageprobe --json -j 4) prints what the Swift command prints`, () => {
    const bin = fileURLToPath(new URL('../../.bin/imageprobe', import.meta.resolve('imageprobe')));
    const out = spawnSync(bin, ['--json', '-j', '4', ...MODES[mode], ...files], { encoding: 'utf8', maxBuffer: 1 << 28 });
    same(out.stdout.trimEnd().split('\n'), expected[mode], `CLI ${mode}`);
    const status = spawnSync(swift, ['--json', ...MODES[mode], ...files], { stdio: 'ignore' }).status;
    assert.equal(out.status, status, 'the same exit status');
  });
}

test('the CLI: text lines, standard input (a pipe and a file), exit statuses', () => {
  const bin = fileURLToPath(new URL('../../.bin/imageprobe', import.meta.resolve('imageprobe')));
  const some = files.slice(0, 40);
  const text = (program) => spawnSync(program, some, { encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.equal(text(bin).stdout, text(swift).stdout);
  const file = files.find((path) => /\.jpe?g$/i.test(path)) ?? files[0];
  for (const input of ['pipe', 'file']) {
    const run = (program) => execFileSync('sh', ['-c', input === 'pipe' ? `cat "$1" | "$0" --json -` : `"$0" --json - < "$1"`, program, file], { encoding: 'utf8' });
    assert.equal(run(bin), run(swift), `standard input as a ${input}`);
  }
  assert.equal(spawnSync(bin, ['/nonexistent/x.png']).status, 3);
  assert.equal(spawnSync(bin, ['--frobnicate']).status, 2);
});

test('the CLI: -r walks a directory as the Swift command does; an empty file and a directory without -r say so alike', () => {
  const bin = fileURLToPath(new URL('../../.bin/imageprobe', import.meta.resolve('imageprobe')));
  // A tree: files in byte order before subdirectories, an empty file, a symbolic link to a file.
  const tree = mkdtempSync(`${tmpdir()}/imageprobe-walk-`);
  execFileSync('sh', ['-c', 'mkdir -p "$0/b/c" "$0/a" && cp "$1" "$0/z.bin" && cp "$1" "$0/a/one" && cp "$2" "$0/b/c/two" && ' +
    ': > "$0/b/empty.png" && ln -s "$0/z.bin" "$0/link"', tree, files[0], files[files.length - 1]]);
  const same = (...args) => {
    const ours = spawnSync(bin, args, { encoding: 'utf8' });
    const theirs = spawnSync(swift, args, { encoding: 'utf8' });
    assert.deepEqual([ours.stdout, ours.stderr, ours.status], [theirs.stdout, theirs.stderr, theirs.status], args.join(' '));
    return ours;
  };
  assert.match(same('-r', tree).stdout, /b\/empty\.png: error: truncated: the input is empty \[0 bytes read\]/);
  same('--json', '-r', tree, files[0]);
  assert.match(same(tree).stderr, /is a directory \(use -r to probe the files in it\)/);
  assert.equal(spawnSync(bin, ['--cross-filesystems', tree]).status, 2);
});

// Seeded random chunk sizes, as Examples/js/test.mjs.
let seed = 2026;
const random = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
const outcome = async (promise) => {
  try { return { info: await promise }; } catch (error) {
    if (error?.name !== 'ImageProbeError') throw error;
    return { error: { code: error.code, message: error.message, detectedFormat: error.detectedFormat, bytesRead: error.bytesRead } };
  }
};
function whole(bytes) {
  const scanner = new esm.Scanner();
  scanner.feed(bytes);
  const result = scanner.finish();
  scanner.dispose();
  return result.status === 'done' ? { info: result.info } : { error: { code: result.error.code, message: result.error.message,
    detectedFormat: result.error.detectedFormat, bytesRead: result.error.bytesRead } };
}

test('probeStream: WHATWG streams in random chunks answer as the whole input does, and are cancelled at the answer', async () => {
  let cancelled = 0;
  for (const path of files) {
    const bytes = new Uint8Array(readFileSync(path));
    const log = { pulled: 0, largest: 0, cancelled: false };
    let offset = 0;
    const stream = new ReadableStream({
      pull(controller) {
        if (offset >= bytes.length) { controller.close(); return; }
        const chunk = bytes.slice(offset, offset + 1 + Math.floor(random() * 4096));
        offset += chunk.length;
        log.pulled += chunk.length;
        log.largest = Math.max(log.largest, chunk.length);
        controller.enqueue(chunk);
      },
      cancel() { log.cancelled = true; },
    }, { highWaterMark: 0 });
    const result = await outcome(esm.probeStream(stream));
    assert.deepEqual(result, whole(bytes), path);
    const read = Number((result.info ?? result.error).bytesRead);
    assert.ok(log.pulled <= read + log.largest, `${path}: pulled ${log.pulled}, read ${read}`);
    assert.ok(log.pulled === bytes.length || log.cancelled, `${path}: not cancelled at the answer`);
    if (log.cancelled) cancelled++;
  }
  assert.ok(cancelled > files.length / 2, `${cancelled} streams cancelled before their end`);
});

test('probeStream: Node Readables (fs.createReadStream) answer as the whole input does, and are destroyed at the answer', async () => {
  for (const path of files.slice(0, 200)) {
    const stream = createReadStream(path, { highWaterMark: 1 + Math.floor(random() * 8192) });
    const result = await outcome(esm.probeStream(stream));
    assert.deepEqual(result, whole(new Uint8Array(readFileSync(path))), path);
    await new Promise((resolve) => setImmediate(resolve));
    assert.ok(stream.destroyed || stream.readableEnded, `${path}: the stream was left open`);
  }
});

test('Scanner: feed in any split, finish, Symbol.dispose, disposed scanners refuse calls', async () => {
  const path = files.find((name) => name.endsWith('.png')) ?? files[0];
  const bytes = new Uint8Array(readFileSync(path));
  const scanner = await esm.Scanner.create({ mode: 'dimensionsOnly' });
  let result = scanner.result;
  for (let offset = 0; result.status === 'needMore' && offset < bytes.length; offset += 7) result = scanner.feed(bytes.subarray(offset, offset + 7));
  assert.equal(result.status, 'done');
  scanner[Symbol.dispose]();
  assert.throws(() => scanner.feed(bytes), (error) => error.code === 'disposed');
  assert.throws(() => new esm.Scanner({ mode: 'sideways' }), TypeError);
  assert.throws(() => new esm.Scanner({ maxBytes: -1 }), RangeError);
  await assert.rejects(esm.probe('not bytes'), TypeError);
  await assert.rejects(esm.probe(new TextEncoder().encode('hello world')), (error) => error instanceof esm.ImageProbeError && error.code === 'unknownFormat');
});

test('imageprobe/web: the web formats answer as the full module does; the others are refused', () => {
  const WEB = ['jpeg', 'png', 'gif', 'webp', 'avif', 'heif', 'jxl', 'svg', 'bmp', 'ico', 'cur', 'tiff'];
  let compared = 0;
  for (const path of files) {
    const bytes = readFileSync(path);
    let full;
    try { full = esm.probeSync(bytes); } catch { continue; }
    let ours;
    try { ours = web.probeSync(bytes); } catch (error) { ours = error; }
    if (WEB.includes(full.format)) {
      assert.deepEqual(ours, full, path);
      compared++;
    } else {
      assert.ok(ours.format === full.format || ours.code === 'unsupportedFeature', `${path}: ${ours}`);
    }
  }
  assert.ok(compared > 0);
});

test('init() with a compiled WebAssembly.Module (as Workers and bundlers pass it)', async () => {
  const module = new WebAssembly.Module(readFileSync(`${packageDir}dist/imageprobe.wasm`));
  await web.init(module);
  const gif = new Uint8Array([71, 73, 70, 56, 57, 97, 3, 0, 2, 0, 0x80, 0, 0, 0, 0, 0, 255, 255, 255, 0x3B]);
  const info = await web.probe(gif);
  assert.deepEqual([info.format, info.width, info.height], ['gif', 3, 2]);
  await web.init(new URL('./imageprobe-web.wasm', import.meta.resolve('imageprobe/web')));
});

test('compat: imageSize() has image-size\'s shape, ESM and CommonJS, and throws TypeError for what it can\'t read', async () => {
  let checked = 0;
  for (const path of files) {
    const bytes = readFileSync(path);
    let info = null;
    try { info = esm.probeSync(bytes); } catch { /* not an image */ }
    if (!info) {
      assert.throws(() => compat.imageSize(bytes), TypeError, path);
      await assert.rejects(compat.imageSizeFromFile(path), Error, path);
      continue;
    }
    const size = compat.imageSize(bytes);
    // HEIF and AVIF: the clean aperture, before rotation (image-size's reading of clap).
    const heif = info.format === 'heif' || info.format === 'avif';
    const turned = info.orientation !== null && info.orientation >= 5;
    assert.equal(size.width, heif ? (turned ? info.displayHeight : info.displayWidth) : info.width, path);
    assert.equal(size.height, heif ? (turned ? info.displayWidth : info.displayHeight) : info.height, path);
    assert.equal(typeof size.type, 'string');
    if (info.orientation !== null) assert.equal(size.orientation, info.orientation);
    assert.deepEqual(cjsCompat.imageSize(bytes), size);
    assert.deepEqual(await compat.imageSizeFromFile(path), size, path);
    checked++;
  }
  assert.ok(checked > 0);
  assert.equal(compat.default, compat.imageSize);
  assert.equal(cjsCompat.default, cjsCompat.imageSize);
  assert.deepEqual(compat.types, ['bmp', 'cur', 'dds', 'gif', 'heif', 'icns', 'ico', 'j2c', 'jp2', 'jpg', 'jxl', 'jxl-stream', 'ktx',
    'png', 'pnm', 'psd', 'svg', 'tga', 'tiff', 'webp']);
  assert.throws(() => compat.imageSize(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])), { name: 'TypeError', message: 'unsupported file type: undefined' });
});

const defects = ['skips', 'chunks', 'empty-chunks', 'forgotten', 'trap'];
const defectScript = fileURLToPath(new URL('./defects.mjs', import.meta.url));
for (const check of defects) {
  test(`audit defect "${check}": fixed in the package`, () => {
    const run = spawnSync(process.execPath, [defectScript, import.meta.resolve('imageprobe'), check], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(run.status, 0, run.stdout + run.stderr);
  });
  test(`audit defect "${check}": the same check fails on the old Examples/js/imageprobe.mjs`, { skip: !process.env.IMAGEPROBE_OLD && 'no old wrapper (IMAGEPROBE_OLD)' }, () => {
    const old = pathToFileURL(`${process.env.IMAGEPROBE_OLD}/imageprobe.mjs`).href;
    const run = spawnSync(process.execPath, [defectScript, old, check], { encoding: 'utf8', timeout: 15_000 });
    assert.notEqual(run.status, 0, `the old wrapper passed: ${run.stdout}`);
  });
}

// --- The extra facts and maxPixels --------------------------------------------------------------
// Images made by Pillow and ImageMagick (test/fixtures/README.md says how), and two written here:
// a PNG with cICP and pHYs chunks, and an animated GIF. Each answer is checked, and every line
// equals what the Swift command prints for the same file, in all three modes.
const fixtures = `${repo}/bindings/js/test/fixtures`;
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes) => {
  let c = 0xFFFFFFFF;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xFF] ^ (c >>> 8);
  return (c ^ 0xFFFFFFFF) >>> 0;
};
function pngChunk(type, data) {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), Buffer.from(data)]);
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), 8 + data.length);
  return out;
}
/** A 4×3 RGB PNG with cICP 9/16/0 full range (BT.2020, PQ: HDR) and pHYs 2835×3780 px/m (72×96 dpi). */
function cicpPNG() {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(4, 0);
  ihdr.writeUInt32BE(3, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const phys = Buffer.alloc(9);
  phys.writeUInt32BE(2835, 0);
  phys.writeUInt32BE(3780, 4);
  phys[8] = 1;
  const rows = Buffer.alloc(3 * (1 + 4 * 3), 0x80);
  for (let row = 0; row < 3; row++) rows[row * 13] = 0;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), pngChunk('IHDR', ihdr),
    pngChunk('cICP', [9, 16, 0, 1]), pngChunk('pHYs', phys), pngChunk('IDAT', deflateSync(rows)), pngChunk('IEND', [])]);
}
/** A 5×4 GIF of 3 frames of 50 ms, looping forever. */
function animatedGIF() {
  const parts = [Buffer.from('GIF89a', 'latin1'), Buffer.from([5, 0, 4, 0, 0x80, 0, 0, 0, 0, 0, 255, 255, 255]),
    Buffer.from([0x21, 0xFF, 0x0B]), Buffer.from('NETSCAPE2.0', 'latin1'), Buffer.from([3, 1, 0, 0, 0])];
  for (let frame = 0; frame < 3; frame++) {
    parts.push(Buffer.from([0x21, 0xF9, 4, 0, 5, 0, 0, 0, 0x2C, 0, 0, 0, 0, 5, 0, 4, 0, 0, 2, 2, 0x44, 1, 0]));
  }
  parts.push(Buffer.from([0x3B]));
  return Buffer.concat(parts);
}
const made = mkdtempSync(`${tmpdir()}/imageprobe-facts-`);
writeFileSync(`${made}/cicp.png`, cicpPNG());
writeFileSync(`${made}/animated.gif`, animatedGIF());
const factFiles = [`${fixtures}/pillow-dpi300.png`, `${fixtures}/magick-interlaced.png`, `${fixtures}/pillow-icc.jpg`,
  `${made}/cicp.png`, `${made}/animated.gif`];

test('extra facts: dpi (Pillow, dpi=(300, 300)), Adam7 (ImageMagick -interlace PNG), an ICC profile, CICP', async () => {
  const dpi = await esm.probeFile(factFiles[0]);
  assert.deepEqual([dpi.format, dpi.width, dpi.height, dpi.dpi, dpi.interlaced, dpi.iccProfile, dpi.cicp],
    ['png', 64, 48, [300, 300], false, false, null]);
  const interlaced = await esm.probeFile(factFiles[1]);
  assert.deepEqual([interlaced.width, interlaced.height, interlaced.interlaced, interlaced.progressive, interlaced.dpi],
    [64, 48, true, true, null]);
  const icc = await esm.probe(readFileSync(factFiles[2]));
  assert.deepEqual([icc.format, icc.iccProfile, icc.hdr, icc.gainMap, icc.motionPhoto, icc.interlaced],
    ['jpeg', true, false, false, false, null]);
  const cicp = esm.probeSync(cicpPNG());
  assert.deepEqual([cicp.cicp, cicp.hdr, cicp.dpi, cicp.gainMap], [[9, 16, 0, true], true, [72, 96], null]);
  assert.deepEqual(cjs.probeSync(cicpPNG()), cicp, 'CommonJS: the same answer');
  // Every image field is there, null when unknown; dimensions-only mode doesn't report them.
  for (const name of ['hdr', 'gainMap', 'cicp', 'iccProfile', 'dpi', 'interlaced', 'motionPhoto']) assert.ok(name in dpi, name);
  const quick = esm.probeSync(readFileSync(factFiles[0]), { mode: 'dimensionsOnly' });
  assert.equal(jsonLine('x', { info: quick }, 'dimensionsOnly').includes('"dpi"'), false);
});

test('extra facts: every line equals the Swift command\'s, in all three modes, and the CLI\'s text lines too', async () => {
  for (const [mode, flags] of Object.entries(MODES)) {
    const theirs = spawnSync(swift, ['--json', ...flags, ...factFiles], { encoding: 'utf8' }).stdout.trimEnd().split('\n')
      .map((line) => line.replace(/,"largestFrame":\{[^}]*\}/, '').replace(/,"firstDelays":\[[^\]]*\]/, ''));
    const ours = [];
    for (const path of factFiles) ours.push(jsonLine(path, { info: await esm.probeFile(path, { mode }) }, mode));
    assert.deepEqual(ours, theirs, mode);
  }
  const bin = fileURLToPath(new URL('../../.bin/imageprobe', import.meta.resolve('imageprobe')));
  assert.equal(spawnSync(bin, factFiles, { encoding: 'utf8' }).stdout, spawnSync(swift, factFiles, { encoding: 'utf8' }).stdout);
});

test('maxPixels: a 64×48 PNG with maxPixels 1000 is refused with tooManyPixels, its format and size', async () => {
  const path = factFiles[0];
  const bytes = readFileSync(path);
  // The CommonJS bundle has its own ImageProbeError class: the name is what both share.
  const refused = (error) => error?.name === 'ImageProbeError' && error.code === 'tooManyPixels' &&
    error.format === 'png' && error.detectedFormat === 'png' && error.width === 64 && error.height === 48 && error.frameCount === null;
  await assert.rejects(esm.probeFile(path, { maxPixels: 1000 }), (error) => error instanceof esm.ImageProbeError && refused(error));
  await assert.rejects(esm.probe(bytes, { maxPixels: 1000n }), refused);
  assert.throws(() => cjs.probeSync(bytes, { maxPixels: 1000 }), refused);
  const scanner = new esm.Scanner({ maxPixels: 1000 });
  scanner.feed(bytes);
  const result = scanner.finish();
  assert.equal(result.status, 'unsupported');
  assert.ok(refused(result.error));
  // At the limit: an answer; far above it: an answer; no limit (0, the default): an answer.
  assert.equal(esm.probeSync(bytes, { maxPixels: 64 * 48 }).width, 64);
  assert.equal(esm.probeSync(bytes, { maxPixels: (1n << 64n) - 1n }).width, 64);
  assert.equal(esm.probeSync(bytes, { maxPixels: 0 }).width, 64);
  assert.throws(() => esm.probeSync(bytes, { maxPixels: -1 }), RangeError);
  assert.throws(() => esm.probeSync(bytes, { maxPixels: 1n << 64n }), RangeError);
  // Animation mode counts frames: 5 × 4 × 3 = 60 pixels.
  const gif = animatedGIF();
  assert.equal(esm.probeSync(gif, { maxPixels: 50 }).frameCount, null);
  assert.throws(() => esm.probeSync(gif, { mode: 'animation', maxPixels: 50 }),
    (error) => error.code === 'tooManyPixels' && error.width === 5 && error.height === 4 && error.frameCount === 3);
  assert.equal(esm.probeSync(gif, { mode: 'animation', maxPixels: 60 }).frameCount, 3);
});

test('maxPixels: the error lines and exit status equal the Swift command\'s (--max-pixels), files and standard input', () => {
  const bin = fileURLToPath(new URL('../../.bin/imageprobe', import.meta.resolve('imageprobe')));
  const inputs = [...factFiles, ...files.slice(0, 200)];
  for (const [mode, flags] of Object.entries(MODES)) {
    for (const style of [['--json'], []]) {
      const args = [...style, ...flags, '--max-pixels', '1000', ...inputs];
      const theirs = spawnSync(swift, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
      const ours = spawnSync(bin, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
      const strip = (text) => text.replace(/,"largestFrame":\{[^}]*\}/g, '').replace(/,"firstDelays":\[[^\]]*\]/g, '');
      const wanted = strip(theirs.stdout).split('\n');
      const differing = strip(ours.stdout).split('\n').map((line, index) => [line, wanted[index]]).filter(([a, b]) => a !== b);
      assert.deepEqual(differing.slice(0, 3), [], `${mode} ${style.join(' ') || 'text'}: ${differing.length} lines differ`);
      assert.equal(ours.status, theirs.status, 'the same exit status');
      assert.match(ours.stdout, /tooManyPixels/);
    }
  }
  const piped = (program) => execFileSync('sh', ['-c', 'cat "$1" | "$0" --json --max-pixels 1000 -; echo "exit $?"', program, factFiles[0]],
    { encoding: 'utf8' });
  assert.equal(piped(bin), piped(swift));
  assert.match(piped(bin), /"error":"tooManyPixels".*"width":64,"height":48.*\nexit 1\n$/);
  assert.equal(spawnSync(bin, ['--max-pixels', '0', factFiles[0]]).status, 2);
  assert.equal(spawnSync(bin, ['--max-pixels', 'many', factFiles[0]]).status, 2);
  assert.equal(spawnSync(bin, ['--json', '--max-pixels', '9223372036854775807', factFiles[0]], { encoding: 'utf8' }).stdout,
    spawnSync(swift, ['--json', '--max-pixels', '9223372036854775807', factFiles[0]], { encoding: 'utf8' }).stdout);
});
