// @imageprobe/markdown-it, packed and installed offline (bindings/js/check.sh), with Debian's
// markdown-it (node-markdown-it) linked in as the user's peer: local images sized from files
// built here (builders.mjs), orientation, the author's own attributes, root's boundary, bounded
// reads, warnings; remote images off unless allowed, allowed by prefix and by host from a
// local server with Range support (servers.mjs), publicOnly's refusal of loopback, the store,
// concurrency; and, on every file given (IMAGEPROBE_FILES), the Swift command's size.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs, { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import MarkdownIt from 'markdown-it';
import imageSize, { createImageSize } from '@imageprobe/markdown-it';
import * as b from './builders.mjs';
import { startServer, sendRange } from './servers.mjs';

const require = createRequire(import.meta.url);
const folder = mkdtempSync(join(tmpdir(), 'markdown-it-'));
const site = join(folder, 'site');
mkdirSync(join(site, 'img'), { recursive: true });
const write = (path, bytes) => {
  writeFileSync(path, bytes);
  return path;
};
write(join(site, 'img', 'chart.png'), b.png({ width: 300, height: 200 }));
write(join(site, 'img', 'photo.jpg'), b.jpeg({ width: 640, height: 480, orientation: 6 }));
write(join(site, 'img', 'my photo é.jpg'), b.jpeg({ width: 64, height: 48 }));
write(join(site, 'drawing.svg'), b.svg([['width', '120'], ['height', '80']]));
write(join(site, 'no-size.svg'), b.svg([]));
const secret = write(join(folder, 'secret.png'), b.png({ width: 999, height: 999 }));
symlinkSync(secret, join(site, 'img', 'link.png'));
after(() => fs.rmSync(folder, { recursive: true, force: true }));

/** A markdown-it with the plugin, the warnings it gave collected. */
function markdown(options = {}) {
  const warnings = [];
  const sizes = createImageSize({ root: site, onWarning: (message, detail) => warnings.push({ message, ...detail }), ...options });
  const md = new MarkdownIt();
  md.use(sizes.plugin);
  return { md, sizes, warnings };
}

test('the package: ESM, the plugin as default export, imageprobe its only dependency, markdown-it a peer', () => {
  const manifest = require('@imageprobe/markdown-it/package.json');
  assert.equal(manifest.name, '@imageprobe/markdown-it');
  assert.equal(manifest.version, require('imageprobe/package.json').version);
  assert.deepEqual(Object.keys(manifest.dependencies), ['imageprobe']);
  assert.ok(manifest.peerDependencies['markdown-it']);
  assert.equal(typeof imageSize, 'function');
  assert.equal(typeof createImageSize, 'function');
  assert.throws(() => require('@imageprobe/markdown-it'), (error) => error.code === 'ERR_REQUIRE_ESM' || error.code === 'ERR_REQUIRE_ASYNC_MODULE');
});

test('local PNG and JPEG: width and height added, the default rendering otherwise unchanged', () => {
  const text = '# Title\n\n![chart](img/chart.png "A chart") and ![photo](/img/photo.jpg)\n\n![spaced](<img/my photo é.jpg>)\n';
  const { md, warnings } = markdown();
  const plain = new MarkdownIt().render(text);
  const html = md.render(text);
  // The oriented JPEG (EXIF 6) as browsers show it: 480 wide, 640 high.
  assert.equal(html, plain
    .replace('title="A chart">', 'title="A chart" width="300" height="200">')
    .replace('alt="photo">', 'alt="photo" width="480" height="640">')
    .replace('alt="spaced">', 'alt="spaced" width="64" height="48">'));
  assert.deepEqual(warnings, []);
  // The plain use, and the stored size on request.
  const local = new MarkdownIt().use(imageSize, { root: site });
  assert.match(local.render('![p](img/photo.jpg)'), /<img src="img\/photo.jpg" alt="p" width="480" height="640">/);
  const stored = new MarkdownIt().use(imageSize, { root: site, orientation: 'stored' });
  assert.match(stored.render('![p](img/photo.jpg)'), /alt="p" width="640" height="480">/);
  // A query or a fragment is not part of the file's name; an SVG with a size has one.
  assert.match(md.render('![c](img/chart.png?v=2#dark) ![d](drawing.svg)'),
    /src="img\/chart.png\?v=2#dark" alt="c" width="300" height="200">.*src="drawing.svg" alt="d" width="120" height="80">/);
  // A root given as a file: URL.
  const fromURL = new MarkdownIt().use(imageSize, { root: new URL(`file://${site}/`) });
  assert.match(fromURL.render('![c](img/chart.png)'), /width="300" height="200"/);
});

test("the author's width or height: the tag left as written; loading and decoding untouched", () => {
  const { md, warnings } = markdown();
  // As markdown-it-attrs ({width=100}) or a lazy-loading plugin would set them, on the token.
  md.core.ruler.push('test-attributes', (state) => {
    for (const block of state.tokens) {
      for (const token of block.children ?? []) {
        if (token.type !== 'image') continue;
        const alt = token.content;
        if (alt === 'wide') token.attrSet('width', '100');
        if (alt === 'tall') token.attrSet('HEIGHT', '50');
        token.attrSet('loading', 'lazy');
        token.attrSet('decoding', 'async');
      }
    }
  });
  const html = md.render('![wide](img/chart.png) ![tall](img/chart.png) ![free](img/chart.png)');
  assert.match(html, /<img src="img\/chart.png" alt="wide" width="100" loading="lazy" decoding="async">/);
  assert.match(html, /<img src="img\/chart.png" alt="tall" HEIGHT="50" loading="lazy" decoding="async">/);
  assert.match(html, /<img src="img\/chart.png" alt="free" loading="lazy" decoding="async" width="300" height="200">/);
  assert.deepEqual(warnings, []);
});

test('a path out of root, by .. or by a symbolic link: not read, a warning, the tag unchanged', (t) => {
  const opened = [];
  const openSync = fs.openSync;
  t.mock.method(fs, 'openSync', (path, ...rest) => { opened.push(String(path)); return openSync(path, ...rest); });
  const { md, warnings } = markdown();
  const sources = ['../secret.png', '/../secret.png', 'img/../../secret.png', '%2e%2e/secret.png', 'img/%2E%2E/%2E%2E/secret.png', 'img/link.png'];
  const html = md.render(sources.map((src) => `![x](${src})`).join(' '));
  assert.doesNotMatch(html, /width=/);
  assert.deepEqual(warnings.map(({ src, error }) => [src, error.code]), sources.map((src) => [src, 'outsideRoot']));
  assert.match(warnings[0].message, /^@imageprobe\/markdown-it: \.\.\/secret\.png: outside root/);
  assert.deepEqual(opened.filter((path) => path.endsWith('secret.png')), []);
  // What is under root is opened (through the mock: it sees the plugin's opens).
  assert.match(md.render('![c](img/chart.png)'), /width="300"/);
  assert.ok(opened.some((path) => path.endsWith('chart.png')));
});

test('a missing file, an SVG without a pixel size, a directory, no root: warnings, the tags unchanged', () => {
  const { md, warnings } = markdown();
  const html = md.render('![m](img/missing.png) ![s](no-size.svg) ![d](img) ![e](%C3.png)');
  assert.doesNotMatch(html, /width=/);
  assert.deepEqual(warnings.map(({ src, error }) => [src, error?.code]), [
    ['img/missing.png', 'ENOENT'], ['no-size.svg', 'unsupportedFeature'], ['img', 'io'], ['%C3.png', 'badPath']]);
  assert.match(warnings[0].message, /img\/missing\.png: not found under root/);
  const noRoot = [];
  const bare = new MarkdownIt().use(imageSize, { onWarning: (message) => noRoot.push(message) });
  assert.equal(bare.render('![c](img/chart.png)'), '<p><img src="img/chart.png" alt="c"></p>\n');
  assert.match(noRoot[0], /no root option/);
});

test('the default onWarning: console.warn once per src, however many renders', (t) => {
  const warn = t.mock.method(console, 'warn', () => {});
  const md = new MarkdownIt().use(imageSize, { root: site });
  for (let i = 0; i < 3; i++) md.render('![m](gone.png) ![m](gone.png) ![n](other.png)');
  assert.deepEqual(warn.mock.calls.map((call) => call.arguments[0]),
    ['@imageprobe/markdown-it: gone.png: not found under root', '@imageprobe/markdown-it: other.png: not found under root']);
});

test('local reads are bounded: a 64 MiB PNG read by its header, its image data jumped over; a FIFO not waited on', (t) => {
  // IHDR, then an IDAT claiming 64 MiB of (sparse) data, then IEND: full mode goes on past the
  // image data (an eXIf may follow it), which a seeking reader jumps.
  const big = join(site, 'big.png');
  const head = b.png({ width: 4000, height: 3000 }).subarray(0, 33);
  const idatLength = 64 * 1024 * 1024;
  const idat = Uint8Array.from([idatLength >>> 24, (idatLength >>> 16) & 255, (idatLength >>> 8) & 255, idatLength & 255, 0x49, 0x44, 0x41, 0x54]);
  writeFileSync(big, b.concat(head, idat));
  fs.truncateSync(big, head.length + idat.length + idatLength);
  fs.appendFileSync(big, b.concat([0, 0, 0, 0], [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]));
  let bytes = 0;
  const readSync = fs.readSync;
  t.mock.method(fs, 'readSync', (...args) => { const got = readSync(...args); bytes += got; return got; });
  const { md, warnings } = markdown();
  assert.match(md.render('![b](big.png)'), /width="4000" height="3000"/);
  assert.deepEqual(warnings, []);
  assert.ok(bytes > 0 && bytes < 256 * 1024, `${bytes} bytes read`);
  if (spawnSync('mkfifo', [join(site, 'pipe.png')]).status === 0) {
    md.render('![p](pipe.png)');
    assert.deepEqual(warnings.map(({ error }) => error.code), ['io']);
  }
});

// --- remote images: a local server, every request counted --------------------------------------

const images = {
  '/img/a.png': b.png({ width: 320, height: 240 }),
  '/img/turned.jpg': b.jpeg({ width: 800, height: 600, orientation: 6 }),
  '/other/b.png': b.png({ width: 10, height: 20 }),
  '/img/empty.svg': b.svg([]),
};

async function imageServer({ delay = 0 } = {}) {
  let active = 0;
  const server = await startServer((request, response, state) => {
    active++;
    state.maxActive = Math.max(state.maxActive ?? 0, active);
    response.on('close', () => { active--; });
    const path = new URL(request.url, 'http://x').pathname;
    const bytes = images[path] ?? (path.startsWith('/many/') ? images['/img/a.png'] : null);
    setTimeout(() => {
      if (!bytes) {
        response.writeHead(404, { 'content-length': 0 });
        response.end();
        return;
      }
      sendRange(request, response, bytes, { etag: '"v1"' });
    }, delay);
  });
  return server;
}

test('remote images are off unless allowed: no request, no warning, the tag unchanged', async (t) => {
  const server = await imageServer();
  t.after(server.stop);
  const text = `![a](${server.url}/img/a.png)`;
  // The plain use: remote images off.
  const plain = new MarkdownIt().use(imageSize, { root: site, onWarning: () => assert.fail('no warning') });
  assert.equal(plain.render(text), `<p><img src="${server.url}/img/a.png" alt="a"></p>\n`);
  // Allowed elsewhere only: prepare() finds it, doesn't probe it.
  const { md, sizes, warnings } = markdown({ remote: { allow: ['https://images.example.com/', 'cdn.example.org'], publicOnly: false } });
  const report = await sizes.prepare(text);
  assert.deepEqual(report, { allowed: 0, notAllowed: 1, fromStore: 0, probed: 0, failed: [] });
  assert.doesNotMatch(md.render(text), /width=/);
  assert.deepEqual(warnings, []);
  // Look-alikes of an allowed prefix are not it.
  const lookAlikes = createImageSize({ remote: { allow: ['https://images.example.com'] } });
  lookAlikes.plugin(new MarkdownIt());
  assert.deepEqual(await lookAlikes.prepare(['![](https://images.example.com.evil.test/a.png)', '![](https://images.example.com@evil.test/a.png)',
    '![](http://images.example.com/a.png)', '![](https://images.example.com:8443/a.png)']),
  { allowed: 0, notAllowed: 4, fromStore: 0, probed: 0, failed: [] });
  assert.equal(server.state.requests.length, 0);
});

test('remote images allowed by prefix and by host: probed with Range requests by prepare(), sized in the render', async (t) => {
  const server = await imageServer();
  t.after(server.stop);
  const text = `![a](${server.url}/img/a.png) ![t](${server.url}/img/turned.jpg)\n\n* ![b](${server.url}/other/b.png)\n`;
  // By prefix: /img/ only.
  const byPrefix = markdown({ remote: { allow: [`${server.url}/img/`], publicOnly: false } });
  const report = await byPrefix.sizes.prepare(text);
  assert.deepEqual(report, { allowed: 2, notAllowed: 1, fromStore: 0, probed: 2, failed: [] });
  assert.ok(server.state.requests.every((request) => /^bytes=\d+-\d+$/.test(request.range)), 'every request has a Range');
  assert.deepEqual(new Set(server.state.requests.map((request) => request.url)), new Set(['/img/a.png', '/img/turned.jpg']));
  const html = byPrefix.md.render(text);
  assert.match(html, /alt="a" width="320" height="240">/);
  assert.match(html, /alt="t" width="600" height="800">/);
  assert.match(html, /<img src="[^"]+\/other\/b.png" alt="b">/);
  assert.deepEqual(byPrefix.warnings, []);
  // The store's entries: the facts, and when they were checked.
  const entry = byPrefix.sizes.store.get(`${server.url}/img/turned.jpg`);
  assert.deepEqual({ ...entry, checked: typeof entry.checked },
    { width: 800, height: 600, displayWidth: 600, displayHeight: 800, format: 'jpeg', checked: 'number' });
  assert.ok(Math.abs(entry.checked - Date.now() / 1000) < 60, 'checked: Unix time in seconds');
  // By host: everything on 127.0.0.1; the stored size on request.
  const before = server.state.requests.length;
  const byHost = markdown({ remote: { allow: ['127.0.0.1'], publicOnly: false }, orientation: 'stored' });
  assert.deepEqual(await byHost.sizes.prepare(text), { allowed: 3, notAllowed: 0, fromStore: 0, probed: 3, failed: [] });
  assert.ok(server.state.requests.length > before);
  const stored = byHost.md.render(text);
  assert.match(stored, /alt="t" width="800" height="600">/);
  assert.match(stored, /alt="b" width="10" height="20">/);
});

test('publicOnly (the default): a loopback URL refused before connecting, the error recorded and warned of', async (t) => {
  const server = await imageServer();
  t.after(server.stop);
  const src = `${server.url}/img/a.png`;
  const { md, sizes, warnings } = markdown({ remote: { allow: [server.url] } });
  const report = await sizes.prepare(`![a](${src})`);
  assert.equal(report.probed, 0);
  assert.deepEqual(report.failed.map(({ url, error }) => [url, error.code]), [[src, 'forbiddenAddress']]);
  assert.equal(server.state.requests.length, 0);
  assert.equal(md.render(`![a](${src})`), `<p><img src="${src}" alt="a"></p>\n`);
  assert.deepEqual(warnings.map(({ src: source, error }) => [source, error.code]), [[src, 'forbiddenAddress']]);
  assert.match(warnings[0].message, /^@imageprobe\/markdown-it: http:\/\/127\.0\.0\.1:\d+\/img\/a\.png: forbiddenAddress: .*loopback/);
});

test('prepare() twice: the second answered by the store, no request; a store of your own; failures tried again', async (t) => {
  const server = await imageServer();
  t.after(server.stop);
  const text = `![a](${server.url}/img/a.png) ![a again](${server.url}/img/a.png) ![gone](${server.url}/img/gone.png) ![s](${server.url}/img/empty.svg)`;
  const { md, sizes, warnings } = markdown({ remote: { allow: [server.url], publicOnly: false } });
  const first = await sizes.prepare([text, text]);
  assert.equal(first.probed, 1);
  assert.deepEqual(first.failed.map(({ error }) => error.code).sort(), ['httpStatus', 'unsupportedFeature']);
  const requests = (path) => server.state.requests.filter((request) => request.url === path).length;
  const probesOfA = requests('/img/a.png');
  const second = await sizes.prepare(text);
  assert.equal(second.fromStore, 1);
  assert.equal(second.probed, 0);
  assert.equal(requests('/img/a.png'), probesOfA, 'no second request for a stored URL');
  assert.equal(second.failed.length, 2, 'failures are not stored: tried again');
  assert.match(md.render(text), /alt="a" width="320" height="240">.*alt="a again" width="320" height="240">/);
  assert.deepEqual(warnings.map(({ error }) => error.code).sort(), ['httpStatus', 'unsupportedFeature']);

  // A store filled beforehand (a cache on disk, say): nothing requested at all.
  const gets = [];
  const shared = new Map([[`${server.url}/img/turned.jpg`,
    { width: 800, height: 600, displayWidth: 600, displayHeight: 800, format: 'jpeg', checked: 1767225600 }]]);
  const store = { get: (url) => { gets.push(url); return shared.get(url); }, set: async (url, entry) => { shared.set(url, entry); } };
  const count = server.state.requests.length;
  const cached = markdown({ remote: { allow: [server.url], publicOnly: false }, store });
  assert.equal(cached.sizes.store, store);
  assert.deepEqual(await cached.sizes.prepare(`![t](${server.url}/img/turned.jpg)`), { allowed: 1, notAllowed: 0, fromStore: 1, probed: 0, failed: [] });
  assert.match(cached.md.render(`![t](${server.url}/img/turned.jpg)`), /width="600" height="800"/);
  assert.equal(server.state.requests.length, count);
  assert.ok(gets.length >= 2);
});

test('remote.cache: a new build answered from imageprobe\'s cache on disk, then revalidated (a 304)', async (t) => {
  const seen = [];
  const server = await startServer((request, response) => {
    seen.push(request.headers['if-none-match'] ?? '');
    if (request.headers['if-none-match'] === '"v1"') {
      response.writeHead(304, { etag: '"v1"' });
      response.end();
      return;
    }
    sendRange(request, response, images['/img/a.png'], { etag: '"v1"' });
  });
  t.after(server.stop);
  const cache = mkdtempSync(join(folder, 'cache-'));
  const text = `![a](${server.url}/img/a.png)`;
  const build = async (options) => {
    const { md, sizes } = markdown({ remote: { allow: [server.url], publicOnly: false, ...options } });
    await sizes.prepare(text);
    return md.render(text);
  };
  assert.match(await build({ cache }), /width="320" height="240"/);
  assert.deepEqual(seen, [''], 'the first build probes');
  assert.match(await build({ cache }), /width="320" height="240"/);
  assert.deepEqual(seen, [''], 'the second, a new plugin and store, sends nothing');
  assert.match(await build({ cache: { dir: cache, freshness: 0 } }), /width="320" height="240"/);
  assert.deepEqual(seen, ['', '"v1"'], 'a stale entry: one conditional request, answered 304');
});

test('the render is synchronous and never fetches: an allowed URL not prepared is left alone, with a warning', async (t) => {
  const server = await imageServer();
  t.after(server.stop);
  const { md, warnings } = markdown({ remote: { allow: [server.url], publicOnly: false } });
  const html = md.render(`![a](${server.url}/img/a.png) ![c](img/chart.png)`);
  assert.equal(typeof html, 'string');
  assert.match(html, /alt="a">.*alt="c" width="300" height="200">/);
  assert.match(warnings[0].message, /not prepared: call prepare\(\)/);
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(server.state.requests.length, 0);
});

test('prepare(): images anywhere (lists, tables, links, reference definitions, alt text), each URL once, `concurrency` at a time', async (t) => {
  const server = await imageServer({ delay: 20 });
  t.after(server.stop);
  const urls = Array.from({ length: 12 }, (_, index) => `${server.url}/many/${index}.png`);
  const text = [
    `> ![q](${urls[0]})`, '', `1. ![l](${urls[1]})`, '', `| a |\n| - |\n| ![t](${urls[2]}) |`, '',
    `[![linked](${urls[3]})](https://example.com)`, '', '![ref][r]', '', `[r]: ${urls[4]}`, '',
    `![outer ![inner](${urls[5]})](${urls[6]})`, '',
    ...urls.slice(7).map((url) => `![x](${url}) ![again](${url})`),
  ].join('\n');
  const { md, sizes } = markdown({ remote: { allow: [server.url], publicOnly: false, concurrency: 3 } });
  const report = await sizes.prepare([text, text]);
  assert.deepEqual(report, { allowed: 12, notAllowed: 0, fromStore: 0, probed: 12, failed: [] });
  assert.ok(server.state.maxActive <= 3, `${server.state.maxActive} requests at once`);
  assert.ok(server.state.maxActive >= 2, 'probes overlap');
  const html = md.render(text);
  assert.equal(html.match(/width="320" height="240"/g).length, 16);
  assert.throws(() => createImageSize({ remote: { allow: [server.url], concurrency: 0 } }), TypeError);
});

test('options are checked when the plugin is made', () => {
  assert.throws(() => createImageSize({ orientation: 'sideways' }), TypeError);
  assert.throws(() => createImageSize({ root: join(folder, 'no-such-directory') }), TypeError);
  assert.throws(() => createImageSize({ remote: { allow: 'https://images.example.com/' } }), TypeError);
  assert.throws(() => createImageSize({ remote: { allow: ['ftp://files.example.com/'] } }), TypeError);
  assert.throws(() => createImageSize({ remote: { allow: ['example.com/images'] } }), TypeError);
  assert.throws(() => createImageSize({ store: {} }), TypeError);
  return assert.rejects(createImageSize().prepare('![a](https://example.com/a.png)'), TypeError);
});

test('every file given: the size the Swift command reports, displayed and stored', { skip: !process.env.IMAGEPROBE_FILES }, () => {
  const paths = readFileSync(process.env.IMAGEPROBE_FILES, 'utf8').split('\n').filter(Boolean);
  const text = paths.map((path) => `![](<${path.split('/').map(encodeURIComponent).join('/')}>)`).join('\n\n');
  for (const [orientation, flags, keys] of [['display', [], ['displayWidth', 'displayHeight']], ['stored', ['--dimensions-only'], ['width', 'height']]]) {
    // Exit status 1 when some input isn't an image: the lines are what counts.
    const answers = spawnSync(process.env.IMAGEPROBE_SWIFT_CLI, ['--json', ...flags, ...paths], { encoding: 'utf8', maxBuffer: 1 << 28 })
      .stdout.trim().split('\n').map((line) => JSON.parse(line));
    const md = new MarkdownIt().use(imageSize, { root: '/', orientation, onWarning: () => {} });
    const tags = md.render(text).match(/<img [^>]*>/g);
    assert.equal(tags.length, paths.length);
    let sized = 0;
    for (const [index, tag] of tags.entries()) {
      const answer = answers[index];
      const size = /width="(\d+)" height="(\d+)"/.exec(tag);
      if (answer[keys[0]] > 0 && answer[keys[1]] > 0) {
        assert.deepEqual(size && [Number(size[1]), Number(size[2])], [answer[keys[0]], answer[keys[1]]], `${orientation}: ${paths[index]}`);
        sized++;
      } else {
        assert.equal(size, null, `${orientation}: ${paths[index]}`);
      }
    }
    console.log(`${orientation}: ${sized} of ${paths.length} files sized as the Swift command sizes them`);
  }
});
