#!/usr/bin/env node
// cli.mjs: `npx imageprobe FILE|URL|-`, printing what the Swift command prints (SPEC.md §4):
// its JSON Lines with --json, its text lines otherwise, in input order, with its exit status.
import { probeFile, probeStream, probeURL, ImageProbeError } from './node.mjs';
import { jsonLine, textLine, escapeName } from './json.mjs';

const USAGE = `usage: imageprobe [--json] [--dimensions-only | --animation] [-j N] [--max-bytes N]
                  [--max-pixels N] [--timeout SECONDS] PATH...

Reads just enough of each image to report its format, size and orientation.
PATH is a file, - for standard input, or an http(s) URL (probed with Range requests).

options:
  --json             one JSON object per input, one per line
  --dimensions-only  stop as soon as width and height are known
  --animation        walk every frame of an animation: frame count, loop count,
                     duration and playback duration
  --max-bytes N      give up after N bytes without an answer (default 16 MiB)
  --max-pixels N     refuse an image of more than N pixels (width x height, x frames
                     with --animation) with the error tooManyPixels and its size: a
                     decompression-bomb guard (default: no limit)
  -j, --jobs N       probe up to N inputs at once, 1 to 256 (default 8); output
                     keeps input order
  --timeout SECONDS  per-request timeout for URLs, 1 to 86400 (default 10)
  -h, --help         show this help
  -V, --version      show the version`;

function usageError(message) {
  process.stderr.write(`imageprobe: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

function parse(argv) {
  const options = { json: false, mode: 'full', jobs: 8, maxBytes: undefined, maxPixels: undefined, timeout: 10, paths: [] };
  const number = (name, text, low, high) => {
    if (!/^[0-9]+$/.test(text ?? '')) usageError(`${name} needs a number`);
    const value = Number(text);
    if (value < low || value > high) usageError(`${name} must be from ${low} to ${high}`);
    return value;
  };
  // A positive count up to 2^63 - 1, as the Swift command takes it: a BigInt above 2^53.
  const count64 = (name, text) => {
    if (!/^[0-9]+$/.test(text ?? '')) usageError(`${name} needs a number`);
    const value = BigInt(text);
    if (value < 1n || value > (1n << 63n) - 1n) usageError(`${name} must be from 1 to ${(1n << 63n) - 1n}`);
    return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
  };
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index];
    const value = () => argv[++index];
    if (arg === '--') { options.paths.push(...argv.slice(index + 1)); break; }
    if (arg === '--json') options.json = true;
    else if (arg === '--dimensions-only') options.mode = 'dimensionsOnly';
    else if (arg === '--animation') options.mode = 'animation';
    else if (arg === '-j' || arg === '--jobs') options.jobs = number(arg, value(), 1, 256);
    else if (/^-j[0-9]+$/.test(arg)) options.jobs = number('-j', arg.slice(2), 1, 256);
    else if (arg === '--max-bytes') options.maxBytes = number(arg, value(), 1, Number.MAX_SAFE_INTEGER);
    else if (arg === '--max-pixels') options.maxPixels = count64(arg, value());
    else if (arg === '--timeout') options.timeout = number(arg, value(), 1, 86400);
    else if (arg === '-h' || arg === '--help') options.help = true;
    else if (arg === '-V' || arg === '--version') options.version = true;
    else if (arg.startsWith('-') && arg !== '-') usageError(`unknown option ${arg}`);
    else options.paths.push(arg);
  }
  return options;
}

const isURL = (path) => /^https?:\/\//i.test(path);

/** Standard input: a regular file is probed with seeking (from its start), anything else streamed. */
async function probeStandardInput(options) {
  const fs = await import('node:fs');
  let regular = false;
  try { regular = fs.fstatSync(0).isFile(); } catch { /* closed: read as a stream */ }
  if (regular) return probeFile('/dev/stdin', options);
  return probeStream(process.stdin, options);
}

async function run(path, options) {
  const scan = { mode: options.mode, maxBytes: options.maxBytes, maxPixels: options.maxPixels };
  try {
    let info;
    if (path === '-') info = await probeStandardInput(scan);
    else if (isURL(path)) {
      info = await probeURL(path, { ...scan, timeout: options.timeout * 1000,
        probeTimeout: Math.max(30, options.timeout * 3) * 1000 });
      delete info.url;
    } else info = await probeFile(path, scan);
    return { info };
  } catch (error) {
    if (!(error instanceof ImageProbeError)) throw error;
    return { error };
  }
}

/** Whether an outcome is an input that couldn't be read (exit 3) rather than not an image (1). */
const unreadable = (outcome) => outcome.error && (outcome.error.code === 'io' ||
  (outcome.error.fetchError !== undefined && outcome.error.fetchError !== 'scan' && outcome.error.fetchError !== 'limitExceeded'));

async function main() {
  const options = parse(process.argv.slice(2));
  if (options.help) { process.stdout.write(USAGE + '\n'); return 0; }
  if (options.version) {
    const fs = await import('node:fs');
    const { version } = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    process.stdout.write(`imageprobe ${version} (JavaScript)\n`);
    return 0;
  }
  if (options.paths.length === 0) usageError('no PATH given');
  let status = 0;
  const report = (path, outcome) => {
    if (unreadable(outcome)) status = 3;
    else if (outcome.error && status === 0) status = 1;
    if (options.json) process.stdout.write(jsonLine(path, outcome, options.mode) + '\n');
    else if (unreadable(outcome)) process.stderr.write(`imageprobe: ${escapeName(path)}: ${escapeName(outcome.error.message)}\n`);
    else process.stdout.write(textLine(path, outcome) + '\n');
  };
  // Up to -j inputs at once; each result printed as soon as it and every one before it are done.
  const results = new Array(options.paths.length);
  let printed = 0;
  let next = 0;
  const worker = async () => {
    while (next < options.paths.length) {
      const index = next++;
      results[index] = await run(options.paths[index], options);
      while (printed < results.length && results[printed] !== undefined) {
        report(options.paths[printed], results[printed]);
        results[printed] = null;
        printed++;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.jobs, options.paths.length) }, worker));
  return status;
}

process.stdout.on('error', (error) => { if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0); });
main().then((status) => { process.exitCode = status; }, (error) => {
  process.stderr.write(`imageprobe: ${error?.stack ?? error}\n`);
  process.exitCode = 70;
});
