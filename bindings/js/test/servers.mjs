// servers.mjs: the test servers, all on loopback and stopped by the tests: nginx with a
// configuration of our own (http and https with a self-signed certificate made by openssl, as
// Tests/ImageProbeFetchTests/NginxServer.swift does), and small Node servers for what nginx
// won't do (ignore Range on an endless body, change the ETag between requests).
import { spawn, execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, writeFileSync, mkdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const freePort = () => new Promise((resolve) => {
  const server = createServer();
  server.listen(0, '127.0.0.1', () => { const { port } = server.address(); server.close(() => resolve(port)); });
});

/** nginx serving `files` (a directory) under /range/, /norange/ (max_ranges 0) and /redirect/. */
export async function startNginx(files) {
  const dir = mkdtempSync(join(tmpdir(), 'imageprobe-nginx-'));
  mkdirSync(join(dir, 'tmp'));
  symlinkSync(files, join(dir, 'files'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
    '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '2', '-subj', '/CN=127.0.0.1',
    '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'], { stdio: 'ignore' });
  const port = await freePort();
  const tlsPort = await freePort();
  const locations = `
        location /range/ { alias ${dir}/files/; }
        location /norange/ { alias ${dir}/files/; max_ranges 0; }
        location ~ ^/redirect/(.*)$ { return 302 /range/$1$is_args$args; }`;
  writeFileSync(join(dir, 'nginx.conf'), `
${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
events { worker_connections 512; }
http {
    log_format probe '$request_uri $status $bytes_sent "$http_range" "$http_if_range" $connection';
    access_log ${dir}/access.log probe;
    client_body_temp_path ${dir}/tmp; proxy_temp_path ${dir}/tmp; fastcgi_temp_path ${dir}/tmp;
    uwsgi_temp_path ${dir}/tmp; scgi_temp_path ${dir}/tmp;
    default_type application/octet-stream;
    sendfile on;
    keepalive_timeout 120s;
    server { listen 127.0.0.1:${port}; ${locations} }
    server { listen 127.0.0.1:${tlsPort} ssl; ssl_certificate ${dir}/cert.pem; ssl_certificate_key ${dir}/key.pem; ${locations} }
}
`);
  const nginx = existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx';
  const child = spawn(nginx, ['-p', `${dir}/`, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], { stdio: 'ignore' });
  for (let i = 0; i < 100 && !existsSync(join(dir, 'nginx.pid')); i++) await sleep(50);
  await sleep(100);
  const log = () => (existsSync(join(dir, 'access.log')) ? readFileSync(join(dir, 'access.log'), 'utf8') : '');
  return {
    dir, cert: join(dir, 'cert.pem'),
    http: `http://127.0.0.1:${port}`, https: `https://127.0.0.1:${tlsPort}`,
    /** Log lines since `mark` (a length of the log), parsed. */
    entries(mark = 0) {
      return log().slice(mark).split('\n').filter(Boolean).map((line) => {
        const [uri, status, sent, ...rest] = line.split(' ');
        const quoted = rest.join(' ').match(/"([^"]*)" "([^"]*)" (\d+)/);
        return { uri, status: Number(status), sent: Number(sent), range: quoted?.[1], ifRange: quoted?.[2], connection: Number(quoted?.[3]) };
      });
    },
    mark: () => log().length,
    stop: async () => { child.kill('SIGTERM'); await sleep(100); },
  };
}

/** A Node server for hostile cases; `handler(request, response, state)` per request. */
export async function startServer(handler) {
  const state = { requests: [], bytesSent: 0 };
  const server = createServer((request, response) => {
    state.requests.push({ url: request.url, range: request.headers.range, ifRange: request.headers['if-range'] });
    const write = response.write.bind(response);
    response.write = (chunk, ...rest) => { state.bytesSent += chunk.length; return write(chunk, ...rest); };
    handler(request, response, state);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  return { url, state, stop: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(resolve); }) };
}

/** `bytes=first-last` as numbers, or null. */
export function parseRange(header) {
  const match = /^bytes=(\d+)-(\d+)$/.exec(header ?? '');
  return match ? [Number(match[1]), Number(match[2])] : null;
}

/** Answers a Range request for `bytes` as a server honouring it would, with `headers`. */
export function sendRange(request, response, bytes, headers = {}) {
  const range = parseRange(request.headers.range);
  if (!range || range[0] >= bytes.length) {
    response.writeHead(range ? 416 : 200, { 'content-length': range ? 0 : bytes.length, ...headers });
    response.end(range ? undefined : bytes);
    return;
  }
  const last = Math.min(range[1], bytes.length - 1);
  const part = bytes.subarray(range[0], last + 1);
  response.writeHead(206, { 'content-range': `bytes ${range[0]}-${last}/${bytes.length}`, 'content-length': part.length, ...headers });
  response.write(part);
  response.end();
}
