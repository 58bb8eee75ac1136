#!/usr/bin/env node
// cli.mjs: `npx imageprobe FILE|URL|-`, printing what the Swift command prints (SPEC.md §4):
// its JSON Lines with --json, its text lines otherwise, in input order, with its exit status.
import { probeFile, probeStream, probeURL, ImageProbeError } from './node.mjs';
import { describeSystemError } from './node-host.mjs';
import { jsonLine, textLine, escapeName } from './json.mjs';

const USAGE = `usage: imageprobe [--json] [-r [--cross-filesystems]] [--dimensions-only | --animation] [-j N]
                  [--max-bytes N] [--max-pixels N] [--timeout SECONDS] PATH...

Reads just enough of each image to report its format, size and orientation.
PATH is a file, a directory (with -r), - for standard input, or an http(s) URL (probed
with Range requests).

options:
  --json             one JSON object per input, one per line
  -r, --recursive    probe every file under a directory, on its filesystem only
  --cross-filesystems  with -r, also descend into other filesystems (pseudo
                     filesystems such as /proc and /sys never)
  --dimensions-only  stop as soon as width and height are known
  --animation        walk every frame of an animation: frame count, loop count,
                     duration and playback duration
  --max-bytes N      give up after N bytes without an answer (default 16 MiB)
  --max-pixels N     refuse an image of more than N pixels (width x height, x frames
                     with --animation) with the error tooManyPixels and its size: a
                     decompression-bomb guard (default: no limit)
  -j, --jobs N       probe up to N files and N URLs at once, 1 to 256 (default 8
                     files and 64 URLs); output keeps input order
  --timeout SECONDS  per-request timeout for URLs, 1 to 86400 (default 10)
  -h, --help         show this help
  -V, --version      show the version`;

function usageError(message) {
  process.stderr.write(`imageprobe: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

function parse(argv) {
  const options = { json: false, recursive: false, crossFilesystems: false, mode: 'full', jobs: undefined, maxBytes: undefined,
    maxPixels: undefined, timeout: 10, paths: [] };
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
    else if (arg === '-r' || arg === '--recursive') options.recursive = true;
    else if (arg === '--cross-filesystems') options.crossFilesystems = true;
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
  if (options.crossFilesystems && !options.recursive) usageError('--cross-filesystems needs -r');
  return options;
}

// Pseudo filesystems, whose files can block or have side effects when read: never walked.
const PSEUDO_FILESYSTEMS = new Set(['proc', 'sysfs', 'debugfs', 'tracefs', 'securityfs', 'cgroup', 'cgroup2', 'devpts', 'bpf',
  'configfs', 'pstore', 'efivarfs', 'fusectl', 'binfmt_misc', 'nsfs', 'selinuxfs', 'smackfs', 'mqueue', 'rpc_pipefs', 'autofs']);

/** Filesystem types by device number, from /proc/self/mountinfo (empty without /proc). */
function mountTypes(fs) {
  const table = new Map();
  let text = '';
  try { text = fs.readFileSync('/proc/self/mountinfo', 'utf8'); } catch { return table; }
  // "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw": major:minor, and the type after "-".
  for (const line of text.split('\n')) {
    const fields = line.split(' ');
    const dash = fields.indexOf('-');
    const numbers = /^(\d+):(\d+)$/.exec(fields[2] ?? '');
    if (dash < 0 || dash + 1 >= fields.length || !numbers) continue;
    const [major, minor] = [BigInt(numbers[1]), BigInt(numbers[2])];
    // glibc's makedev, as stat's dev gives it.
    const device = ((major & 0xFFFFF000n) << 32n) | ((major & 0xFFFn) << 8n) | ((minor & 0xFFFFFF00n) << 12n) | (minor & 0xFFn);
    table.set(device, fields[dash + 1]);
  }
  return table;
}

/**
 * Every regular file under `directory` as the command walks it (SPEC.md §4): depth first, a
 * directory's files in byte order of name before its subdirectories, symbolic links to files
 * followed and to directories not, each directory once, on the starting filesystem unless
 * `crossFilesystems`, never into a pseudo filesystem. Yields { path } or { path, failure }.
 */
async function* walk(directory, crossFilesystems) {
  const fs = await import('node:fs');
  const types = mountTypes(fs);
  const pending = [directory];
  const visited = new Set();
  const pseudo = new Map();
  let root = null;
  const allowed = (device) => {
    if (root !== null && device !== root && !crossFilesystems) return false;
    if (!pseudo.has(device)) pseudo.set(device, PSEUDO_FILESYSTEMS.has(types.get(device)));
    return !pseudo.get(device);
  };
  const byBytes = (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b));
  while (pending.length) {
    const current = pending.pop();
    let info = null;
    try { info = fs.statSync(current, { bigint: true }); } catch { /* listed below, which says why */ }
    if (info) {
      if (root === null) {
        root = info.dev;
        if (!allowed(info.dev)) {
          yield { path: current, failure: 'is on a pseudo filesystem (such as /proc or /sys): not walked' };
          continue;
        }
      }
      if (!allowed(info.dev) || visited.has(`${info.dev}:${info.ino}`)) continue;
      visited.add(`${info.dev}:${info.ino}`);
    }
    let names;
    try {
      names = fs.readdirSync(current).sort(byBytes);
    } catch (error) {
      yield { path: current, failure: `cannot open directory: ${describeSystemError(error)}` };
      continue;
    }
    const subdirectories = [];
    for (const name of names) {
      const path = current.endsWith('/') ? current + name : `${current}/${name}`;
      let entry;
      try {
        entry = fs.lstatSync(path, { bigint: true });
      } catch (error) {
        yield { path, failure: `cannot stat: ${describeSystemError(error)}` };
        continue;
      }
      if (entry.isDirectory()) subdirectories.push(path);
      else if (entry.isFile()) { if (allowed(entry.dev)) yield { path }; }
      else if (entry.isSymbolicLink()) {
        let target = null;
        try { target = fs.statSync(path, { bigint: true }); } catch { /* a dangling link: not a file */ }
        if (target?.isFile() && allowed(target.dev)) yield { path };
      }
    }
    pending.push(...subdirectories.reverse());
  }
}

/** The inputs in order: each PATH, a directory's files in its place with -r. */
async function* inputs(options) {
  const fs = await import('node:fs');
  for (const path of options.paths) {
    let directory = false;
    if (options.recursive && path !== '-' && !isURL(path)) {
      try { directory = fs.statSync(path).isDirectory(); } catch { /* probed below, which says why */ }
    }
    if (directory) yield* walk(path, options.crossFilesystems);
    else yield { path };
  }
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

/** At most `limit` holders at once; `use(work)` waits for a place. */
function slots(limit) {
  let free = limit;
  const waiting = [];
  return async (work) => {
    if (free > 0) free--; else await new Promise((resolve) => waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next(); else free++;
    }
  };
}

async function run(path, options, fileSlot) {
  const scan = { mode: options.mode, maxBytes: options.maxBytes, maxPixels: options.maxPixels };
  try {
    let info;
    if (isURL(path)) {
      info = await probeURL(path, { ...scan, timeout: options.timeout * 1000,
        probeTimeout: Math.max(30, options.timeout * 3) * 1000 });
      delete info.url;
    } else {
      info = await fileSlot(() => (path === '-' ? probeStandardInput(scan) : probeFile(path, scan)));
    }
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
    else if (unreadable(outcome)) {
      // The status a server answered with is part of the message, as the command prints it.
      const status = outcome.error.status ? ` (HTTP ${outcome.error.status})` : '';
      process.stderr.write(`imageprobe: ${escapeName(path)}: ${escapeName(outcome.error.message)}${status}\n`);
    }
    else process.stdout.write(textLine(path, outcome) + '\n');
  };
  // Up to -j inputs at once (by default 8 files, whose reads are work, and 64 URLs, which wait on
  // the network, as the Swift command); each result printed as soon as it and every one before
  // it are done.
  const fileJobs = options.jobs ?? 8;
  const urlJobs = options.jobs ?? 64;
  const fileSlot = slots(fileJobs);
  const queue = inputs(options);
  const results = new Map();
  let printed = 0;
  let taken = 0;
  const worker = async () => {
    for (;;) {
      const step = await queue.next();
      if (step.done) return;
      const index = taken++;
      const input = step.value;
      results.set(index, [input.path, input.failure !== undefined
        ? { error: new ImageProbeError('io', input.failure, { bytesRead: 0, bytesSkipped: 0 }) }
        : await run(input.path, options, fileSlot)]);
      while (results.has(printed)) {
        report(...results.get(printed));
        results.delete(printed);
        printed++;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(fileJobs, urlJobs) }, worker));
  return status;
}

process.stdout.on('error', (error) => { if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0); });
main().then((status) => { process.exitCode = status; }, (error) => {
  process.stderr.write(`imageprobe: ${error?.stack ?? error}\n`);
  process.exitCode = 70;
});
