// @imageprobe/image-size installed as `image-size` (bindings/js/check.sh: npm pack, then
// `npm install --offline image-size@file:...tgz`, the alias by a route that needs no registry):
// every entry resolves under image-size's names, ESM and require(); image-size's shapes,
// messages and types on images built here (builders.mjs); the file handle opened once and
// closed; setConcurrency; the command; and, on every file given (IMAGEPROBE_FILES), the same
// size as the Swift command (IMAGEPROBE_SWIFT_CLI).
import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import fs, { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';
import imageSizeDefault, { imageSize, disableTypes, types } from 'image-size';
import { imageSizeFromFile, setConcurrency } from 'image-size/fromFile';
import * as b from './builders.mjs';

const require = createRequire(import.meta.url);
const folder = mkdtempSync(join(tmpdir(), 'image-size-'));
const file = (name, bytes) => {
  const path = join(folder, name);
  writeFileSync(path, bytes);
  return path;
};

test('the alias: image-size is @imageprobe/image-size, every entry resolves, ESM and require()', async () => {
  assert.equal(require('image-size/package.json').name, '@imageprobe/image-size');
  const cjs = require('image-size');
  assert.equal(typeof cjs.imageSize, 'function');
  assert.equal(cjs.default, cjs.imageSize);
  assert.equal(cjs.__esModule, true);
  assert.equal(typeof require('image-size/fromFile').imageSizeFromFile, 'function');
  assert.equal(typeof require('image-size/fromFile').setConcurrency, 'function');
  assert.equal(imageSizeDefault, imageSize);
  assert.deepEqual((await import('image-size/types/index')).types, types);
  assert.deepEqual(require('image-size/types/index').types, types);
  assert.ok(require.resolve('image-size/types/interface'));
  assert.deepEqual(types, ['bmp', 'cur', 'dds', 'gif', 'heif', 'icns', 'ico', 'j2c', 'jp2', 'jpg', 'jxl', 'jxl-stream', 'ktx',
    'png', 'pnm', 'psd', 'svg', 'tga', 'tiff', 'webp']);
  // No dependency, the module bundled.
  const manifest = require('image-size/package.json');
  assert.deepEqual(manifest.dependencies ?? {}, {});
  assert.ok(readFileSync(require.resolve('image-size/package.json').replace('package.json', 'dist/imageprobe/imageprobe.wasm')).length > 1000);
});

const shapes = [
  ['photo.jpg', b.jpeg({ width: 640, height: 480, orientation: 6 }), { height: 480, width: 640, type: 'jpg', orientation: 6 }],
  ['image.png', b.png({ width: 300, height: 200 }), { height: 200, width: 300, type: 'png' }],
  ['icons.ico', b.icon([[16, 16], [256, 256], [48, 48]]),
    { height: 256, width: 256, type: 'ico', images: [{ width: 16, height: 16 }, { width: 256, height: 256 }, { width: 48, height: 48 }] }],
  ['pointer.cur', b.icon([[32, 32]], 2), { height: 32, width: 32, type: 'cur' }],
  ['family.icns', b.icns([['is32', 100], ['s8mk', 256], ['ic08', 500], ['TOC ', 16]]),
    { height: 256, width: 256, type: 'icns', images: [{ width: 16, height: 16, type: 'is32' }, { width: 16, height: 16, type: 's8mk' },
      { width: 256, height: 256, type: 'ic08' }] }],
  // The clean aperture (123 of 124 columns), before any rotation; each ispe in `images`.
  ['photo.heic', b.heif({ width: 124, height: 456, clap: [123, 456], thumbnail: [64, 64], exifOrientation: 6 }),
    { height: 456, width: 123, type: 'heic', images: [{ width: 123, height: 456 }, { width: 64, height: 64 }] }],
  ['turned.avif', b.heif({ brand: 'avif', compatible: ['avif', 'mif1', 'miaf'], width: 400, height: 300, irot: 1 }),
    { height: 300, width: 400, type: 'avif', orientation: 8 }],
  ['drawing.svg', b.svg([['width', '5in'], ['height', '4pt']]), { height: 5, width: 480, type: 'svg' }],
  ['scan.tif', b.bigTiff({ width: 1000, height: 700 }), { height: 700, width: 1000, type: 'bigtiff' }],
];

test("shapes: image-size's result for each, from imageSize() (ESM and require()) and imageSizeFromFile()", async () => {
  for (const [name, bytes, expected] of shapes) {
    assert.deepEqual(imageSize(bytes), expected, name);
    assert.deepEqual(require('image-size').imageSize(bytes), expected, name);
    assert.deepEqual(await imageSizeFromFile(file(name, bytes)), expected, name);
    assert.deepEqual(await require('image-size/fromFile').imageSizeFromFile(join(folder, name)), expected, name);
  }
});

test("errors: image-size's TypeErrors and messages, disableTypes, an empty and a missing file", async () => {
  const broken = b.png({ width: 10, height: 10 });
  broken.set([0x49, 0x48, 0x44, 0x4F], 12);  // IHDR renamed: the first chunk isn't IHDR
  assert.throws(() => imageSize(broken), { name: 'TypeError', message: 'Invalid PNG' });
  await assert.rejects(imageSizeFromFile(file('broken.png', broken)), { name: 'TypeError', message: 'Invalid PNG' });
  assert.throws(() => imageSize(new TextEncoder().encode('not an image at all')), { name: 'TypeError', message: 'unsupported file type: undefined' });
  // A start tag that never ends: the peers (and browsers) read no size from it.
  assert.throws(() => imageSize(new TextEncoder().encode('<svg width="5" height="5"')), { name: 'TypeError', message: 'Invalid SVG' });
  assert.throws(() => imageSize(b.svg([['width', '5']])), { name: 'TypeError', message: 'Invalid SVG' });
  try {
    disableTypes(['jpg', 'heif']);
    assert.throws(() => imageSize(shapes[0][1]), { name: 'TypeError', message: 'disabled file type: jpg' });
    await assert.rejects(imageSizeFromFile(join(folder, 'photo.jpg')), { name: 'TypeError', message: 'disabled file type: jpg' });
    assert.throws(() => imageSize(shapes[6][1]), { name: 'TypeError', message: 'disabled file type: heif' });
    assert.equal(imageSize(shapes[1][1]).type, 'png');
  } finally {
    disableTypes([]);
  }
  await assert.rejects(imageSizeFromFile(file('empty.png', new Uint8Array(0))), { message: 'Empty file' });
  await assert.rejects(imageSizeFromFile(join(folder, 'missing.png')), (error) => error.code === 'ENOENT' && /^ENOENT/.test(error.message));
});

test('imageSizeFromFile opens the file once (fs.promises.open, as image-size) and closes it', async () => {
  const path = file('closed.png', b.png({ width: 8, height: 8 }));
  const spy = mock.method(fs.promises, 'open');
  try {
    await imageSizeFromFile(path);
    assert.equal(spy.mock.callCount(), 1);
    const handle = await spy.mock.calls[0].result;
    assert.throws(() => fs.readSync(handle.fd, new Uint8Array(1), 0, 1, 0));
  } finally {
    spy.mock.restore();
  }
});

test('setConcurrency(n): at most n files open at once', async () => {
  const paths = Array.from({ length: 12 }, (_, index) => file(`many-${index}.png`, b.png({ width: index + 1, height: 1 })));
  let open = 0;
  let most = 0;
  const original = fs.promises.open;
  const spy = mock.method(fs.promises, 'open', async (...args) => {
    open++;
    most = Math.max(most, open);
    const handle = await original.apply(fs.promises, args);
    const close = handle.close.bind(handle);
    handle.close = async () => { open--; return close(); };
    return handle;
  });
  try {
    setConcurrency(2);
    const sizes = await Promise.all(paths.map((path) => imageSizeFromFile(path)));
    assert.deepEqual(sizes.map((size) => size.width), paths.map((_, index) => index + 1));
    assert.ok(most <= 2 && most >= 1, `at most 2 open, saw ${most}`);
  } finally {
    spy.mock.restore();
    setConcurrency(100);
  }
});

test("the image-size command prints image-size's lines", () => {
  const bin = join(process.cwd(), 'node_modules', '.bin', 'image-size');
  const run = spawnSync(bin, [join(folder, 'icons.ico'), join(folder, 'nothing-here.png')], { encoding: 'utf8' });
  const plain = (text) => text.replace(/\x1B\[\d+m/g, '');
  assert.deepEqual(plain(run.stdout).trim().split('\n'), [16, 256, 48].map((side) => `${side}x${side} - ${join(folder, 'icons.ico')} (ico)`));
  assert.match(plain(run.stderr), /file doesn't exist - {2}.*nothing-here\.png/);
});

test('every file given: the Swift command\'s size (HEIF: its display size before rotation), from bytes and from the file', { skip: !process.env.IMAGEPROBE_FILES }, async () => {
  const paths = readFileSync(process.env.IMAGEPROBE_FILES, 'utf8').split('\n').filter(Boolean);
  // Exit status 1 when some input isn't an image: the lines are what counts.
  const lines = spawnSync(process.env.IMAGEPROBE_SWIFT_CLI, ['--json', ...paths], { encoding: 'utf8', maxBuffer: 1 << 28 })
    .stdout.trim().split('\n').map((line) => JSON.parse(line));
  let images = 0;
  for (const [index, path] of paths.entries()) {
    const answer = lines[index];
    let fromBytes;
    try { fromBytes = imageSize(readFileSync(path)); } catch (error) { fromBytes = error; }
    let fromFile;
    try { fromFile = await imageSizeFromFile(path); } catch (error) { fromFile = error; }
    if (!answer.format) {
      assert.ok(fromBytes instanceof TypeError, path);
      assert.ok(fromFile instanceof Error, path);
      continue;
    }
    images++;
    assert.deepEqual(fromFile, fromBytes, path);
    const heif = answer.format === 'heif' || answer.format === 'avif';
    const turned = (answer.orientation ?? 0) >= 5;
    const width = heif ? (turned ? answer.displayHeight : answer.displayWidth) : answer.width;
    const height = heif ? (turned ? answer.displayWidth : answer.displayHeight) : answer.height;
    assert.deepEqual([fromBytes.width, fromBytes.height], [width, height], path);
    if (answer.orientation) assert.equal(fromBytes.orientation, answer.orientation, path);
  }
  assert.ok(images > 0);
});
