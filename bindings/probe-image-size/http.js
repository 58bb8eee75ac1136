'use strict';
// probe-image-size's probe(url [, options]) over imageprobe's probeURL: HTTP Range requests
// planned by the core (SPEC.md §6.1), a budget on every byte received (16 MiB), stopped at the
// answer, where probe-image-size downloads from byte 0 with needle until its parsers answer.
//
// Its options: `headers` (a User-Agent of probe-image-size's form by default), `follow_max`
// (redirects, default 10), `open_timeout`, `response_timeout` and `read_timeout` (the longest
// is each request's limit; defaults 10, 60 and 60 s); `publicOnly` (refuse private and
// loopback addresses) is imageprobe's own. needle's other options (agent, rejectUnauthorized,
// compressed...) have no effect: requests go through Node's fetch().
//
// The result is probe-image-size's, with `length` (the whole file's, from Content-Length or
// Content-Range) and `url` (after redirects). Errors: ProbeError "bad status code: N" with
// `statusCode`; ProbeError "unrecognized file format" (ECONTENT); "Max redirects reached";
// Node's own network errors (ENOTFOUND, ECONNREFUSED, ECONNRESET for a connection the server
// dropped); ETIMEDOUT; any other refusal of the planner as a ProbeError with its code
// ("contentEncoded", "badContentRange", "limitExceeded", ...).
const { api } = require('./dist/imageprobe.cjs');
const { ProbeError } = require('./lib/common');
const { shape, HEAD_SIZE } = require('./lib/shape');
const pkg = require('./package.json');

const USER_AGENT = `probe-image-size/${pkg.version} (imageprobe; +https://github.com/nodeca/probe-image-size)`;
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** The bytes of the file's first HEAD_SIZE that responses brought, and which ranges of it. */
class Received {
  constructor() {
    this.bytes = new Uint8Array(HEAD_SIZE);
    this.ranges = [];
  }

  add(offset, chunk) {
    if (offset >= HEAD_SIZE) return;
    const part = chunk.subarray(0, HEAD_SIZE - offset);
    this.bytes.set(part, offset);
    this.ranges.push([offset, offset + part.length]);
    this.ranges.sort((a, b) => a[0] - b[0]);
    const merged = [];
    for (const range of this.ranges) {
      const last = merged[merged.length - 1];
      if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]); else merged.push([...range]);
    }
    this.ranges = merged;
  }

  /** The bytes [offset, offset + length) if they all arrived, else null. */
  at(offset, length) {
    const covered = this.ranges.some(([start, end]) => start <= offset && offset + length <= end);
    return covered ? this.bytes.subarray(offset, offset + length) : null;
  }

  /** The first bytes, as far as they arrived without a gap. */
  get head() {
    const first = this.ranges[0];
    return first && first[0] === 0 ? this.bytes.subarray(0, first[1]) : new Uint8Array(0);
  }
}

/** fetch() that passes every response on with its body recorded into `received`, and notes the file's length. */
function recordingFetch(received, facts) {
  return async (url, init) => {
    const response = await fetch(url, init);
    let start = null;
    if (response.status === 200) {
      start = 0;
      const length = response.headers.get('content-length');
      if (facts.length === undefined && length && /^\d+$/.test(length)) facts.length = Number(length);
    } else if (response.status === 206) {
      const range = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(response.headers.get('content-range') ?? '');
      if (range) {
        start = Number(range[1]);
        if (facts.length === undefined && range[2] !== '*') facts.length = Number(range[2]);
      }
    }
    if (!response.body || NULL_BODY.has(response.status)) return response;
    let offset = start;
    const body = response.body.pipeThrough(new TransformStream({
      transform(chunk, controller) {
        if (offset !== null) {
          received.add(offset, chunk);
          offset += chunk.length;
        }
        controller.enqueue(chunk);
      },
    }));
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** The system error under a fetch() failure (ENOTFOUND...), as Node's http client would report it. */
function networkError(error) {
  let cause = error;
  while (cause?.cause && typeof cause.code !== 'string') cause = cause.cause;
  if (cause?.code === 'UND_ERR_SOCKET') return Object.assign(new Error('socket hang up', { cause: error }), { code: 'ECONNRESET' });
  if (cause?.code === 'UND_ERR_CONNECT_TIMEOUT') return Object.assign(new Error('connect ETIMEDOUT', { cause: error }), { code: 'ETIMEDOUT' });
  return cause instanceof Error && typeof cause.code === 'string' ? cause : error;
}

function translate(error, url) {
  if (error?.name !== 'ImageProbeError') return error;
  const status = error.status;
  if (error.code === 'httpStatus' || (status && status !== 200 && status !== 206 && !(status >= 300 && status < 400))) {
    return new ProbeError(`bad status code: ${status}`, undefined, status, { cause: error });
  }
  switch (error.code) {
    case 'tooManyRedirects':
    case 'redirectLoop':
      return new ProbeError(`Max redirects reached. Possible loop in: ${url}`, error.code, undefined, { cause: error });
    case 'connection': return networkError(error.cause ?? error);
    case 'timeout': return Object.assign(new Error(`timeout: ${error.message}`, { cause: error }), { code: 'ETIMEDOUT' });
    case 'unsupportedURL': return new ProbeError(`Invalid URI "${url}"`, error.code, undefined, { cause: error });
    case 'trap': return error;
    default:
      if (error.fetchError === 'scan') return new ProbeError('unrecognized file format', 'ECONTENT', undefined, { cause: error });
      return new ProbeError(error.message, error.code, undefined, { cause: error });
  }
}

module.exports = async function probeHttp(src, options) {
  if (typeof src !== 'string') throw new TypeError('URL must be a string');
  const opts = options && typeof options === 'object' ? options : {};
  // needle's default protocol: a URL without one is http.
  const url = /^[a-z][a-z0-9+.-]*:\/\//i.test(src) ? src : `http://${src}`;
  const headers = new Headers({ 'user-agent': USER_AGENT });
  for (const [name, value] of Object.entries(opts.headers ?? {})) if (value !== undefined) headers.set(name, String(value));
  const seconds = (value, fallback) => (typeof value === 'number' && value > 0 ? value : fallback);
  const timeout = Math.max(seconds(opts.open_timeout ?? opts.timeout, 10_000), seconds(opts.response_timeout, 60_000), seconds(opts.read_timeout, 60_000));
  const received = new Received();
  const facts = { length: undefined };
  let info;
  try {
    info = await api.probeURL(url, {
      fetch: recordingFetch(received, facts),
      headers,
      timeout,
      maxRedirects: Number.isInteger(opts.follow_max) && opts.follow_max >= 0 ? opts.follow_max : 10,
      ...(opts.publicOnly !== undefined ? { publicOnly: opts.publicOnly } : {}),
    });
  } catch (error) {
    throw translate(error, url);
  }
  const result = shape(info, received.head, (offset, length) => received.at(offset, length));
  if (!result) throw new ProbeError('unrecognized file format', 'ECONTENT');
  if (facts.length !== undefined) result.length = facts.length;
  result.url = info.url;
  return result;
};
