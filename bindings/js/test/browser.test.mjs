// A real browser: headless Chromium loads a page that imports the installed package's ESM (the
// file its "browser" condition names, through an import map) from a static server on loopback.
// The page probeStreams a fetch() of a large image and probeURLs it with Range requests, and
// shows the results; the test reads them from the page with a small DevTools client (over
// --remote-debugging-pipe) and checks the server's log. The page runs in real time: a virtual
// time budget (--dump-dom's way to wait) let Chromium run the page's 10 s timers ahead of its
// fetches, and failed a CI run with "no answer within 10000 ms" after 2 s.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, sendRange } from './servers.mjs';

const files = readFileSync(process.env.IMAGEPROBE_FILES, 'utf8').split('\n').filter(Boolean);
const packageDir = fileURLToPath(new URL('..', import.meta.resolve('imageprobe')));
const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
const browserEntry = pkg.exports['.'].browser.default.replace(/^\.\//, '/pkg/');
const chromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path));

// The large image: a JPEG of the inputs followed by 32 MiB. Chromium hands a fetch() body over
// in chunks of up to 2 MiB, so a body this size shows whether the read stopped at the answer.
const jpeg = readFileSync(files.find((path) => /\.jpe?g$/i.test(path) && readFileSync(path).length > 2048));
const big = new Uint8Array(jpeg.length + (32 << 20));
big.set(jpeg);
const TYPES = { '.mjs': 'text/javascript', '.js': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html', '.json': 'application/json' };

const PAGE = `<!doctype html><meta charset="utf-8"><title>imageprobe in Chromium</title>
<script type="importmap">{"imports": {"imageprobe": "${browserEntry}"}}</script>
<pre id="result">pending</pre>
<script type="module">
import { probeStream, probeURL } from 'imageprobe';
const out = {};
try {
  const response = await fetch('/big.jpg');
  const reader = response.body.getReader();
  let pulled = 0, cancelled = false;
  const counted = new ReadableStream({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close(); else { pulled += value.length; controller.enqueue(value); }
    },
    cancel(reason) { cancelled = true; return reader.cancel(reason); },
  }, { highWaterMark: 0 });
  const info = await probeStream(counted);
  out.stream = { format: info.format, width: info.width, height: info.height, bytesRead: Number(info.bytesRead),
    pulled, cancelled, size: Number(response.headers.get('content-length')) };
  const probed = await probeURL(new URL('/range/big.jpg', location.href).href);
  out.url = { format: probed.format, width: probed.width, height: probed.height, requests: probed.requests,
    bytesTransferred: Number(probed.bytesTransferred) };
} catch (error) {
  out.error = String(error && error.stack || error);
}
document.getElementById('result').textContent = JSON.stringify(out);
await fetch('/report', { method: 'POST', body: JSON.stringify(out) });
</script>`;

test('headless Chromium: probeStream of a fetch() body (cancelled at the answer) and probeURL with Range', { skip: !chromium && 'no chromium' }, async () => {
  let report = null;
  const server = await startServer((request, response) => {
    const url = new URL(request.url, 'http://x');
    if (url.pathname === '/page.html') { response.writeHead(200, { 'content-type': 'text/html' }); response.end(PAGE); return; }
    if (url.pathname === '/report') {
      let body = '';
      request.on('data', (chunk) => { body += chunk; });
      request.on('end', () => { report = JSON.parse(body); response.end('ok'); });
      return;
    }
    if (url.pathname === '/big.jpg') {
      // Streamed in 64 KiB writes, so a cancel stops it short of the whole.
      response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': big.length });
      let offset = 0;
      const pump = () => {
        while (offset < big.length) {
          const ok = response.write(big.subarray(offset, offset + 65536));
          offset += 65536;
          if (!ok) { response.once('drain', pump); return; }
        }
        response.end();
      };
      response.on('close', () => { offset = big.length; });
      pump();
      return;
    }
    if (url.pathname === '/range/big.jpg') { sendRange(request, response, big, { 'content-type': 'image/jpeg', etag: '"big"' }); return; }
    if (url.pathname.startsWith('/pkg/')) {
      const path = join(packageDir, url.pathname.slice(5));
      if (!path.startsWith(packageDir) || !existsSync(path)) { response.writeHead(404); response.end(); return; }
      response.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' });
      response.end(readFileSync(path));
      return;
    }
    response.writeHead(404);
    response.end();
  });
  try {
    const profile = mkdtempSync(join(tmpdir(), 'imageprobe-chromium-'));
    const browser = spawn(chromium, ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', `--user-data-dir=${profile}`,
      '--remote-debugging-pipe', 'about:blank'], { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'], detached: true });
    let fromPage = null, failure = null;
    try {
      const devtools = devToolsClient(browser);
      const { targetId } = await devtools.send('Target.createTarget', { url: 'about:blank' });
      const { sessionId } = await devtools.send('Target.attachToTarget', { targetId, flatten: true });
      await devtools.send('Page.navigate', { url: `${server.url}/page.html` }, sessionId);
      // Waits in the page until it shows its result (the page's own timers bound it), as text.
      // A call that lands in about:blank as it is replaced is made again.
      let result = null;
      for (let attempt = 0; result === null; attempt++) {
        try {
          ({ result } = await devtools.send('Runtime.evaluate', { awaitPromise: true, returnByValue: true, expression: `
            new Promise((resolve) => {
              const poll = () => {
                const shown = document.getElementById('result')?.textContent;
                if (shown && shown !== 'pending') resolve(shown); else setTimeout(poll, 50);
              };
              poll();
            })` }, sessionId));
        } catch (error) {
          if (attempt >= 20 || !/context was destroyed|Cannot find context/.test(error.message)) throw error;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
      fromPage = JSON.parse(result.value);
      // The page posts the same result to the server after showing it.
      for (let waited = 0; report === null && waited < 5000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    } catch (error) {
      failure = error;
    } finally {
      try { process.kill(-browser.pid, 'SIGKILL'); } catch { browser.kill('SIGKILL'); }
    }
    assert.equal(failure, null, `DevTools: ${failure?.message}`);
    assert.ok(fromPage, 'no result from the page');
    assert.equal(fromPage.error, undefined, fromPage.error);
    assert.deepEqual(fromPage, report, 'the page shows what it reported');
    assert.equal(fromPage.stream.format, 'jpeg');
    assert.ok(fromPage.stream.width > 0 && fromPage.stream.height > 0);
    assert.equal(fromPage.stream.cancelled, true, 'the body was cancelled at the answer');
    assert.ok(fromPage.stream.pulled < fromPage.stream.size / 4, `pulled ${fromPage.stream.pulled} of ${fromPage.stream.size}`);
    assert.deepEqual([fromPage.url.format, fromPage.url.width, fromPage.url.height],
      [fromPage.stream.format, fromPage.stream.width, fromPage.stream.height]);
    const ranged = server.state.requests.filter((entry) => entry.url === '/range/big.jpg');
    assert.equal(ranged.length, fromPage.url.requests);
    assert.ok(ranged.every((entry) => /^bytes=\d+-\d+$/.test(entry.range ?? '')), 'every request had a Range');
    assert.ok(fromPage.url.bytesTransferred < 256 * 1024, `probeURL received ${fromPage.url.bytesTransferred} bytes`);
    console.log(`chromium: ${JSON.stringify(fromPage)}`);
  } finally {
    await server.stop();
  }
});

// DevTools over --remote-debugging-pipe: JSON messages ending in a NUL byte, written to the
// browser's fd 3 and read from its fd 4. Each call is bounded by 60 s of real time.
function devToolsClient(browser) {
  const writer = browser.stdio[3], reader = browser.stdio[4];
  const pending = new Map();
  let nextId = 1, buffered = '';
  const failAll = (error) => { for (const { reject } of pending.values()) reject(error); pending.clear(); };
  reader.setEncoding('utf8');
  reader.on('data', (chunk) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\0'); end >= 0; end = buffered.indexOf('\0')) {
      const message = JSON.parse(buffered.slice(0, end));
      buffered = buffered.slice(end + 1);
      const waiter = message.id !== undefined && pending.get(message.id);
      if (!waiter) continue;
      pending.delete(message.id);
      if (message.error) waiter.reject(new Error(`${waiter.method}: ${message.error.message}`));
      else if (message.result?.exceptionDetails) waiter.reject(new Error(`${waiter.method}: ${JSON.stringify(message.result.exceptionDetails)}`));
      else waiter.resolve(message.result);
    }
  });
  browser.on('exit', (code) => failAll(new Error(`chromium exited (${code})`)));
  return {
    send(method, params, sessionId) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => { pending.delete(id); reject(new Error(`${method}: no reply within 60 s`)); }, 60_000);
        pending.set(id, { method, resolve: (value) => { clearTimeout(timer); resolve(value); },
          reject: (error) => { clearTimeout(timer); reject(error); } });
        writer.write(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }) + '\0');
      });
    },
  };
}
