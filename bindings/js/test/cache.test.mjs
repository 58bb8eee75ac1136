// probeURL's cache (SPEC.md §6.7): answers kept in a directory (or any store), fresh ones used
// without a request, stale ones revalidated by the conditional request the core plans (a 304
// from nginx), corrupt entries rewritten, failures and partial answers never stored.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { probeURL, ImageProbeError } from 'imageprobe';
import { png } from './builders.mjs';
import { startNginx, startServer, sendRange } from './servers.mjs';

const served = mkdtempSync(join(tmpdir(), 'imageprobe-cache-served-'));
const nginx = await startNginx(served);
after(() => nginx.stop());
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));  // nginx logs a request when it ends
const entries = (dir) => readdirSync(dir).filter((name) => name.endsWith('.json'));
const withoutCosts = ({ bytesTransferred, requests, fromCache, ...info }) => info;

test('cold, warm, stale (a 304) and changed', async () => {
  writeFileSync(join(served, 'a.png'), png({ width: 64, height: 48 }));
  const url = `${nginx.http}/range/a.png`;
  const cache = mkdtempSync(join(tmpdir(), 'imageprobe-cache-'));

  const cold = await probeURL(url, { cache });
  assert.equal(cold.fromCache, false);
  assert.deepEqual([cold.width, cold.height, cold.requests], [64, 48, 1]);
  assert.equal(entries(cache).length, 1);

  let mark = nginx.mark();
  const warm = await probeURL(url, { cache });
  assert.deepEqual([warm.fromCache, warm.requests, warm.bytesTransferred], [true, 0, 0]);
  assert.deepEqual(withoutCosts(warm), withoutCosts(cold));
  await settle();
  assert.equal(nginx.entries(mark).length, 0);

  mark = nginx.mark();
  const stale = await probeURL(url, { cache: { dir: cache, freshness: 0 } });
  assert.deepEqual([stale.fromCache, stale.requests], [true, 1]);
  assert.ok(stale.bytesTransferred < 400, String(stale.bytesTransferred));
  assert.deepEqual(withoutCosts(stale), withoutCosts(cold));
  await settle();
  assert.deepEqual(nginx.entries(mark).map((entry) => entry.status), [304]);

  writeFileSync(join(served, 'a.png'), png({ width: 20, height: 10 }));
  const later = Date.now() / 1000 + 5;
  utimesSync(join(served, 'a.png'), later, later);
  const changed = await probeURL(url, { cache: { dir: cache, freshness: 0 } });
  assert.deepEqual([changed.fromCache, changed.width, changed.height, changed.requests], [false, 20, 10, 1]);
  const again = await probeURL(url, { cache });
  assert.deepEqual([again.fromCache, again.width, again.height], [true, 20, 10]);
});

test('an entry per mode and limit; corrupt, foreign and truncated entries are rewritten', async () => {
  writeFileSync(join(served, 'b.png'), png({ width: 12, height: 9 }));
  const url = `${nginx.http}/range/b.png`;
  const cache = mkdtempSync(join(tmpdir(), 'imageprobe-cache-'));
  await probeURL(url, { cache });
  await probeURL(url, { cache, mode: 'dimensionsOnly' });
  assert.equal(entries(cache).length, 2);
  await assert.rejects(probeURL(url, { cache, maxPixels: 1 }), ImageProbeError, 'not answered from the full mode\'s entry');

  const only = mkdtempSync(join(tmpdir(), 'imageprobe-cache-'));
  await probeURL(url, { cache: only });
  const [name] = entries(only);
  const good = readFileSync(join(only, name), 'utf8');
  const record = JSON.parse(good);
  for (const damaged of ['', good.slice(0, good.length / 2), '\0'.repeat(40), JSON.stringify({ ...record, imageprobe: 2 }),
    JSON.stringify({ ...record, key: `${record.key}x` }), JSON.stringify({ ...record, answer: [] })]) {
    writeFileSync(join(only, name), damaged);
    const result = await probeURL(url, { cache: only });
    assert.equal(result.fromCache, false, damaged.slice(0, 40));
    assert.equal(JSON.parse(readFileSync(join(only, name), 'utf8')).key, record.key, 'rewritten');
  }
  assert.deepEqual(readdirSync(only).filter((file) => file.endsWith('.tmp')), []);
});

test('max-age and no-cache set the freshness; failures are not stored; any store will do', async () => {
  const image = png({ width: 30, height: 20 });
  const seen = [];
  const server = await startServer((request, response) => {
    seen.push(request.headers['if-none-match'] ?? '');
    if (request.url === '/gone.png') { response.writeHead(404, { 'content-length': 0 }); response.end(); return; }
    const control = request.url === '/no-cache.png' ? 'no-cache' : 'max-age=3600';
    if (request.headers['if-none-match'] === '"v1"') {
      response.writeHead(304, { etag: '"v1"', 'cache-control': control });
      response.end();
      return;
    }
    sendRange(request, response, image, { etag: '"v1"', 'cache-control': control });
  });
  after(() => server.stop());
  const store = new Map();
  const cache = { get: (key) => store.get(key), set: (key, entry) => { store.set(key, JSON.parse(JSON.stringify(entry))); }, freshness: 0 };

  assert.equal((await probeURL(`${server.url}/long.png`, { cache })).fromCache, false);
  assert.equal((await probeURL(`${server.url}/long.png`, { cache })).requests, 0, 'max-age=3600 wins over freshness 0');
  const longCache = { ...cache, freshness: 86_400_000 };
  assert.equal((await probeURL(`${server.url}/no-cache.png`, { cache: longCache })).fromCache, false);
  const revalidated = await probeURL(`${server.url}/no-cache.png`, { cache: longCache });
  assert.deepEqual([revalidated.fromCache, revalidated.requests, revalidated.width, revalidated.height], [true, 1, 30, 20]);
  assert.deepEqual(seen, ['', '', '"v1"']);

  await assert.rejects(probeURL(`${server.url}/gone.png`, { cache }), { code: 'httpStatus' });
  assert.equal(store.size, 2, 'the failure left no entry');
  for (const entry of store.values()) {
    assert.equal(entry.imageprobe, 1);
    assert.equal(typeof entry.checked, 'number');
    assert.equal(entry.answer.bytesTransferred, undefined, 'costs are not stored');
  }
});

test('an entry as Python\'s URLCache writes it (SPEC.md §6.7: the same names and format)', async () => {
  const url = 'http://127.0.0.1:9/shared.png';  // the discard port: nothing answers there
  const key = `imageprobe-url-cache 1\nfull\n16777216\n0\n${url}`;
  const cache = mkdtempSync(join(tmpdir(), 'imageprobe-cache-'));
  writeFileSync(join(cache, `${createHash('sha256').update(key).digest('hex')}.json`), JSON.stringify({
    imageprobe: 1, key, checked: Date.now() / 1000, entityTag: '"a"', lastModified: '', freshness: null,
    answer: { format: 'png', mime: 'image/png', width: 5, height: 4, orientation: null, displayWidth: 5, displayHeight: 4,
      bitDepth: 8, alpha: true, dpi: [72, 72] },
  }));
  const info = await probeURL(url, { cache });
  assert.deepEqual([info.fromCache, info.requests, info.width, info.displayHeight, info.bitDepth, info.alpha, info.url],
    [true, 0, 5, 4, 8, true, url]);
  assert.deepEqual(info.dpi, [72, 72]);
  assert.equal(info.cicp, null);
});
