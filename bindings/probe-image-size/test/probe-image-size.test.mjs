// @imageprobe/probe-image-size installed as `probe-image-size` (bindings/js/check.sh: npm pack,
// then `npm install --offline probe-image-size@file:...tgz`): every entry resolves under
// probe-image-size's names; its shapes (variants, SVG units, HEIF Exif orientation), null and
// ECONTENT for what isn't an image, keepOpen, the stream's own errors; and probe(url) against
// a local server: Range requests, bounded and stopped at the answer, `length` and `url`,
// redirects, statusCode, the User-Agent. Images are built here (builders.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { createReadStream, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createRequire } from 'node:module';
import probeDefault from 'probe-image-size';
import * as b from './builders.mjs';

const require = createRequire(import.meta.url);
const probe = require('probe-image-size');
const px = { wUnits: 'px', hUnits: 'px' };

test('the alias: probe-image-size is @imageprobe/probe-image-size, its sub-paths resolve, ESM and require()', () => {
  assert.equal(require('probe-image-size/package.json').name, '@imageprobe/probe-image-size');
  assert.deepEqual(require('probe-image-size/package.json').dependencies ?? {}, {});
  assert.equal(probeDefault, probe);
  assert.equal(typeof probe, 'function');
  assert.equal(probe.sync, require('probe-image-size/sync'));
  assert.equal(typeof require('probe-image-size/stream'), 'function');
  assert.equal(typeof require('probe-image-size/http'), 'function');
  const error = new probe.Error('bad status code: 404', undefined, 404);
  assert.ok(error instanceof Error);
  assert.equal(error.name, 'ProbeError');
  assert.equal(error.statusCode, 404);
});

const heic = b.heif({ width: 124, height: 456, clap: [123, 456], thumbnail: [64, 64], exifOrientation: 6 });
const shapes = [
  ['jpeg', b.jpeg({ width: 640, height: 480, orientation: 6 }), { width: 640, height: 480, type: 'jpg', mime: 'image/jpeg', ...px, orientation: 6 }],
  ['png', b.png({ width: 300, height: 200 }), { width: 300, height: 200, type: 'png', mime: 'image/png', ...px }],
  ['ico', b.icon([[16, 16], [256, 256], [48, 48]]), { width: 256, height: 256, type: 'ico', mime: 'image/x-icon', ...px,
    variants: [{ width: 16, height: 16 }, { width: 256, height: 256 }, { width: 48, height: 48 }] }],
  // The stored size (before the clean aperture), every ispe, and the Exif item's orientation.
  ['heic', heic, { width: 124, height: 456, type: 'heic', mime: 'image/heic', ...px,
    variants: [{ width: 124, height: 456 }, { width: 64, height: 64 }], orientation: 6 }],
  ['avif', b.heif({ brand: 'avif', compatible: ['avif', 'mif1', 'miaf'], width: 400, height: 300, irot: 1 }),
    { width: 400, height: 300, type: 'avif', mime: 'image/avif', ...px, orientation: 8 }],
  ['heif', b.heif({ brand: 'mif1', compatible: ['mif1', 'heic'], width: 20, height: 10 }), { width: 20, height: 10, type: 'heif', mime: 'image/heif', ...px }],
  ['svg units', b.svg([['width', '5in'], ['height', '4pt']]), { width: 5, height: 4, type: 'svg', mime: 'image/svg+xml', wUnits: 'in', hUnits: 'pt' }],
  ['svg viewBox', b.svg([['width', '1in'], ['viewBox', '0 0 100 50']]), { width: 1, height: 0.5, type: 'svg', mime: 'image/svg+xml', wUnits: 'in', hUnits: 'in' }],
  ['svg fractions', b.svg([['width', '744.09448819'], ['height', '1052.3622047']]),
    { width: 744.09448819, height: 1052.3622047, type: 'svg', mime: 'image/svg+xml', ...px }],
  // TIFF: probe-image-size reports no orientation for it.
  ['tiff', b.bigTiff({ width: 1000, height: 700 }), { width: 1000, height: 700, type: 'tiff', mime: 'image/tiff', ...px }],
];

test("sync: probe-image-size's result for each; arrays too; null for what isn't an image", () => {
  for (const [name, bytes, expected] of shapes) {
    assert.deepEqual(probe.sync(bytes), expected, name);
    assert.deepEqual(probe.sync(Buffer.from(bytes)), expected, name);
  }
  assert.deepEqual(probe.sync(Array.from(shapes[1][1])), shapes[1][2]);
  assert.equal(probe.sync(new TextEncoder().encode('just some text, no image')), null);
  assert.equal(probe.sync(new Uint8Array(0)), null);
  assert.equal(probe.sync(new TextEncoder().encode('<svg width="5" height="5"')), null);
});

test('stream: the same results in any split; unrecognized is ECONTENT; the stream\'s own error; keepOpen', async () => {
  for (const [name, bytes, expected] of shapes) {
    assert.deepEqual(await probe(Readable.from([Buffer.from(bytes)])), expected, name);
    const split = Array.from({ length: Math.ceil(bytes.length / 7) }, (_, index) => Buffer.from(bytes.subarray(index * 7, index * 7 + 7)));
    assert.deepEqual(await probe(Readable.from(split)), expected, `${name}, 7-byte chunks`);
  }
  await assert.rejects(probe(Readable.from([Buffer.from('just some text, no image')])),
    (error) => error instanceof probe.Error && error.code === 'ECONTENT' && /unrecognized file format/.test(error.message));
  const failure = new Error('stream err');
  await assert.rejects(probe(Readable.from((async function* broken() { throw failure; })())), (error) => error === failure);
  const folder = mkdtempSync(join(tmpdir(), 'probe-image-size-'));
  const path = join(folder, 'photo.jpg');
  writeFileSync(path, shapes[0][1]);
  const closed = createReadStream(path);
  await probe(closed);
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(closed.destroyed, true);
  const kept = createReadStream(path);
  await probe(kept, true);
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(kept.destroyed, false);
  kept.destroy();
});

test('stream: a HEIF whose Exif item lies past the first 64 KiB is read on to it (sync has it whole)', async () => {
  const far = b.heif({ width: 640, height: 480, exifOrientation: 3, imageBytes: 100_000 });
  const expected = { width: 640, height: 480, type: 'heic', mime: 'image/heic', ...px, orientation: 3 };
  assert.deepEqual(probe.sync(far), expected);
  const chunks = Array.from({ length: Math.ceil(far.length / 4096) }, (_, index) => Buffer.from(far.subarray(index * 4096, index * 4096 + 4096)));
  assert.deepEqual(await probe(Readable.from(chunks)), expected);
});

/** A server of `files` (path -> bytes) that honours Range (unless `ignoreRange`), recording each request. */
async function serve(files, { ignoreRange = false } = {}) {
  const log = [];
  const server = http.createServer((request, response) => {
    const entry = { url: request.url, range: request.headers.range, userAgent: request.headers['user-agent'], sent: 0 };
    log.push(entry);
    if (request.url === '/moved') {
      response.writeHead(302, { Location: '/photo.heic' });
      return response.end();
    }
    const bytes = files[request.url];
    if (!bytes) {
      response.writeHead(404);
      return response.end('not found');
    }
    const range = !ignoreRange && /^bytes=(\d+)-(\d+)$/.exec(request.headers.range ?? '');
    if (range) {
      const first = Number(range[1]);
      const last = Math.min(Number(range[2]), bytes.length - 1);
      const part = bytes.subarray(first, last + 1);
      entry.sent = part.length;
      response.writeHead(206, { 'Content-Range': `bytes ${first}-${last}/${bytes.length}`, 'Content-Length': part.length });
      return response.end(part);
    }
    entry.sent = bytes.length;
    response.writeHead(200, { 'Content-Length': bytes.length });
    response.end(bytes);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  return { base, log, close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }) };
}

test('http: Range requests, bounded and stopped at the answer; length, url, redirects, statusCode, ECONTENT, User-Agent', async () => {
  // A JPEG whose frame header comes after 200 KB of an APP segment run: the probe jumps it.
  const padding = Array.from({ length: 4 }, () => [0xFF, 0xEE, 0xC3, 0x52, ...new Uint8Array(50_000)]).flat();
  const big = b.concat([0xFF, 0xD8], padding, b.jpeg({ width: 4000, height: 3000 }).subarray(2));
  const files = { '/photo.heic': heic, '/big.jpg': big, '/text.txt': new TextEncoder().encode('x'.repeat(3000)) };
  const server = await serve(files);
  try {
    const result = await probe(`${server.base}/photo.heic`);
    assert.deepEqual(result, { ...shapes[3][2], length: heic.length, url: `${server.base}/photo.heic` });
    assert.ok(server.log.every((entry) => /^bytes=\d+-\d+$/.test(entry.range)), 'every request has a Range');
    assert.match(server.log[0].userAgent, /^probe-image-size\//);

    server.log.length = 0;
    const large = await probe(`${server.base}/big.jpg`, { headers: { 'User-Agent': 'foobar' } });
    assert.deepEqual([large.width, large.height, large.type, large.length], [4000, 3000, 'jpg', big.length]);
    const sent = server.log.reduce((sum, entry) => sum + entry.sent, 0);
    assert.ok(sent < big.length / 10, `${sent} bytes sent of ${big.length}`);
    assert.equal(server.log[0].userAgent, 'foobar');

    const moved = await probe(`${server.base}/moved`);
    assert.equal(moved.url, `${server.base}/photo.heic`);
    await assert.rejects(probe(`${server.base}/missing.png`), (error) => error instanceof probe.Error && error.statusCode === 404);
    await assert.rejects(probe(`${server.base}/text.txt`), (error) => error.code === 'ECONTENT');
    await assert.rejects(probe(123), /URL must be a string/);
  } finally {
    await server.close();
  }
  const plain = await serve(files, { ignoreRange: true });
  try {
    const result = await probe(`${plain.base}/photo.heic`);
    assert.equal(result.length, heic.length);
    assert.equal(result.orientation, 6);
  } finally {
    await plain.close();
  }
});
