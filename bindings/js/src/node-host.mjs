// node-host.mjs: what the package needs from Node (the "node" export condition only): reading
// the module from a file: URL, and probeFile and probeFileSync. node:fs is imported dynamically (or taken with
// process.getBuiltinModule for the synchronous first load), never on the default path.
import { driveSeekable, driveSeekableSync, FAIL, ImageProbeError, READ_SIZE, TEXT, WIRE } from './core.mjs';

const builtin = (name) => globalThis.process?.getBuiltinModule?.(name) ?? null;

// strerror(3)'s words for what Node reports by code, so messages read as the Swift command's.
const STRERROR = {
  ENOENT: 'No such file or directory', EACCES: 'Permission denied', EPERM: 'Operation not permitted',
  ENOTDIR: 'Not a directory', EISDIR: 'Is a directory', ELOOP: 'Too many levels of symbolic links',
  ENAMETOOLONG: 'File name too long', EMFILE: 'Too many open files', ENFILE: 'Too many open files in system',
  EIO: 'Input/output error', ENXIO: 'No such device or address', ENODEV: 'No such device',
  EINVAL: 'Invalid argument', EOVERFLOW: 'Value too large for defined data type', EAGAIN: 'Resource temporarily unavailable',
};
const describe = (error) => STRERROR[error?.code] ?? String(error?.message ?? error);

function ioError(message, cause) {
  return new ImageProbeError('io', message, { cause, bytesRead: 0, bytesSkipped: 0 });
}

/** How long the rest of a short response is read after the answer, to keep its connection. */
const DRAIN_TIME = 100;
/** Idle connections kept per origin and address policy, and how long each is kept. */
const IDLE_PER_KEY = 64;
const IDLE_TIME = 5_000;

/**
 * Connections whose last response ended exactly, shared by every probeURL in the process, by
 * origin and address policy (a connection checked under one policy is not lent to another).
 * Parked connections are unref'd, so they never keep the process alive; one the server closes
 * leaves the pool, and a reused one that turns out closed is replaced once (below).
 */
const idlePool = new Map();

function park(key, socket) {
  let list = idlePool.get(key);
  if (!list) idlePool.set(key, list = []);
  if (list.length >= IDLE_PER_KEY) return socket.destroy();
  const entry = { socket, timer: null };
  const leave = () => {
    clearTimeout(entry.timer);
    socket.off('error', leave);
    socket.off('close', leave);
    const at = list.indexOf(entry);
    if (at >= 0) list.splice(at, 1);
    if (list.length === 0 && idlePool.get(key) === list) idlePool.delete(key);
    socket.destroy();
  };
  entry.leave = leave;
  entry.timer = setTimeout(leave, IDLE_TIME);
  entry.timer.unref?.();
  socket.pause();
  socket.unref();
  socket.on('error', leave);
  socket.on('close', leave);
  list.push(entry);
}

function unpark(key) {
  const list = idlePool.get(key);
  const entry = list?.pop();
  if (!entry) return null;
  if (list.length === 0) idlePool.delete(key);
  clearTimeout(entry.timer);
  entry.socket.off('error', entry.leave);
  entry.socket.off('close', entry.leave);
  entry.socket.ref();
  return entry.socket;
}

/**
 * probeURL's transport in Node: sockets of its own (node:net, node:tls), every byte read handed
 * to the core's planner (imageprobe_planner_wire), which reads HTTP/1.1 and keeps every rule.
 * Under `publicOnly` (`rule`), each address is checked before connecting (the socket's lookup,
 * and numeric hosts here), and the address connected to once more, on every redirect.
 */
function socketTransport({ rule, policyKey, userAgent, headers }) {
  const net = builtin('node:net');
  const tls = builtin('node:tls');
  const dns = builtin('node:dns');
  if (!net || !tls || !dns) throw new ImageProbeError('unsupportedRuntime', 'imageprobe: Node\'s net, tls and dns are not there');
  const extra = Object.entries(headers instanceof Headers ? Object.fromEntries(headers) : headers ?? {})
    .filter(([name]) => !/^(range|if-range|accept-encoding|host|user-agent|connection)$/i.test(name))
    .map(([name, value]) => `${name}: ${String(value).replace(/[\r\n]/g, ' ')}\r\n`).join('');
  const refusal = (message) => Object.assign(new Error(message), { code: 'EIMAGEPROBEREFUSED' });
  // Resolves like dns.lookup, without the refused addresses; none left is the policy's refusal.
  const lookup = (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, list) => {
      if (error) return callback(error);
      const refused = list.map(({ address }) => rule.check(address));
      const allowed = list.filter((_, index) => refused[index] === null);
      if (allowed.length === 0) return callback(refusal(refused[0] ?? `${hostname}: no address`));
      if (options?.all) return callback(null, allowed);
      return callback(null, allowed[0].address, allowed[0].family);
    });
  };

  function connect(host, port, secure, signal) {
    return new Promise((resolve, reject) => {
      if (rule && rule.parse(host)) {
        // A numeric host skips the lookup: checked here, before any connection.
        const why = rule.check(host);
        if (why) return reject({ kind: FAIL.forbiddenAddress, detail: why });
      }
      const options = { host, port, ...(rule ? { lookup } : {}), highWaterMark: 16 * 1024 };
      const socket = secure
        ? tls.connect({ ...options, servername: net.isIP(host) ? undefined : host, ALPNProtocols: ['http/1.1'] })
        : net.connect(options);
      const failed = (error) => {
        socket.destroy();
        reject(error?.code === 'EIMAGEPROBEREFUSED' ? { kind: FAIL.forbiddenAddress, detail: error.message }
          : { kind: FAIL.connection, detail: String(error?.message ?? error) });
      };
      socket.once('error', failed);
      socket.once(secure ? 'secureConnect' : 'connect', () => {
        socket.off('error', failed);
        // The address actually connected to, checked once more.
        const why = rule ? rule.check(socket.remoteAddress ?? '') : null;
        if (why) return failed(refusal(why));
        resolve(socket);
      });
      signal?.addEventListener('abort', () => failed(new Error('cancelled')), { once: true });
    });
  }

  return {
    async exchange(planner, until, signal, step, fresh = false) {
      const host = planner.text(TEXT.host);
      const key = `${step.secure ? 'https' : 'http'}://${host}:${step.port} ${policyKey}`;
      let socket = fresh ? null : unpark(key);
      const reused = socket !== null;
      const timer = { id: null };
      let abort = null;
      try {
        const deadline = new Promise((_, reject) => {
          timer.id = setTimeout(() => reject({ kind: FAIL.timeout, detail: '' }), Math.max(1, until - performance.now()));
        });
        deadline.catch(() => {});
        if (!socket) socket = await Promise.race([connect(host, step.port, step.secure, signal), deadline]);
        const head = `${planner.text(TEXT.requestHead)}User-Agent: ${userAgent}\r\n${extra}\r\n`;
        const outcome = await Promise.race([deadline, new Promise((resolve, reject) => {
          let got = 0;
          const done = (value) => { socket.off('data', data); socket.off('end', closed); socket.off('error', broken); resolve(value); };
          const data = (chunk) => {
            got += chunk.length;
            const progress = planner.wire(chunk);
            if (progress !== WIRE.more) done(progress);
          };
          const closed = () => {
            if (reused && got === 0) return done('retry');
            planner.wireClosed();
            done(WIRE.ended);
          };
          const broken = (error) => {
            if (reused && got === 0) return done('retry');
            socket.off('data', data);
            socket.off('end', closed);
            reject({ kind: FAIL.connection, detail: String(error?.message ?? error) });
          };
          abort = () => reject({ kind: FAIL.cancelled, detail: '' });
          signal?.addEventListener('abort', abort, { once: true });
          socket.on('data', data);
          socket.once('end', closed);
          socket.once('error', broken);
          socket.resume();
          socket.write(head);
        })]);
        if (outcome === 'retry') {
          socket.destroy();
          socket = null;
          clearTimeout(timer.id);
          return this.exchange(planner, until, signal, step, true);
        }
        let progress = outcome;
        if (progress === WIRE.ended && planner.drainable) progress = await drain(planner, socket);
        if (progress === WIRE.endedReusable) {
          park(key, socket);
          socket = null;
        }
      } finally {
        clearTimeout(timer.id);
        if (abort) signal?.removeEventListener('abort', abort);
        socket?.destroy();
      }
    },
    close() {},
  };
}

/** Reads the rest of a short response the planner stopped reading, for at most DRAIN_TIME. */
function drain(planner, socket) {
  return new Promise((resolve) => {
    const finish = (progress) => {
      clearTimeout(timer);
      socket.off('data', data);
      socket.off('end', ended);
      resolve(progress);
    };
    const data = (chunk) => {
      const progress = planner.wire(chunk);
      if (progress !== WIRE.more) finish(progress);
    };
    const ended = () => finish(WIRE.ended);
    const timer = setTimeout(() => finish(WIRE.ended), DRAIN_TIME);
    socket.on('data', data);
    socket.once('end', ended);
  });
}

/** The scan options for a file with `stat` (a BigInt fs.Stats), or the io error SPEC.md §4 gives. */
function fileScanOptions(stat, options) {
  if (stat.isDirectory()) throw ioError('is a directory (use -r to probe the files in it)');
  if (!stat.isFile() && !stat.isBlockDevice()) {
    throw ioError('not a regular file (use - to read a pipe or device from standard input)');
  }
  const scanOptions = { ...options };
  // A regular file's size lets formats with facts at the end use it; procfs files say 0.
  if (stat.isFile() && stat.size > 0n && scanOptions.inputLength === undefined) scanOptions.inputLength = stat.size;
  return scanOptions;
}

/**
 * The seekable reading's `read(position)` over `readAt(number)`, which returns the bytes read
 * there (or a promise of them). Node's reads ignore a BigInt position (they read on from the
 * current one), so the position is a number, exact below 2^53: no file reaches past that, so it
 * is the end, as EINVAL (a device's end) is.
 */
function positioned(readAt) {
  const failed = (error) => {
    if (error?.code === 'EINVAL') return new Uint8Array(0);
    throw ioError(`cannot read: ${describe(error)}`, error);
  };
  return (position) => {
    if (position > 9007199254740991n) return new Uint8Array(0);
    try {
      const got = readAt(Number(position));
      return typeof got?.then === 'function' ? got.catch(failed) : got;
    } catch (error) {
      return failed(error);
    }
  };
}

function fileAnswer(result) {
  if (result.status === 'done') return result.info;
  throw result.error;
}

/** How often, in writes, a file cache counts its entries against its bound. */
const PRUNE_EVERY = 64;

/**
 * probeURL's cache in a directory (SPEC.md §6.7): one JSON file per entry, named by the
 * SHA-256 of its key, written to a temporary file and renamed over it, so processes (and
 * Python's URLCache) may share the directory. Past `maxEntries`, the oldest go.
 */
function fileCache(directory, { freshness = 86_400_000, maxEntries = 10_000 } = {}) {
  const fs = builtin('node:fs');
  const { createHash, randomBytes } = builtin('node:crypto') ?? {};
  const { join } = builtin('node:path') ?? {};
  if (!fs || !createHash || !join) {
    throw new ImageProbeError('unsupportedRuntime', 'imageprobe: a cache directory needs Node 20.16 or later (process.getBuiltinModule)');
  }
  if (!(Number.isSafeInteger(maxEntries) && maxEntries >= 1)) throw new RangeError('imageprobe: cache.maxEntries must be a positive integer');
  const dir = directory instanceof URL ? builtin('node:url').fileURLToPath(directory) : String(directory);
  fs.mkdirSync(dir, { recursive: true });
  const path = (key) => join(dir, `${createHash('sha256').update(key, 'utf8').digest('hex')}.json`);
  let writes = 0;
  const prune = async () => {
    const now = Date.now();
    const entries = [];
    for (const name of await fs.promises.readdir(dir).catch(() => [])) {
      const file = join(dir, name);
      const stat = await fs.promises.stat(file).catch(() => null);
      if (!stat) continue;
      if (name.endsWith('.json')) entries.push([stat.mtimeMs, file]);
      else if (name.startsWith('.') && name.endsWith('.tmp') && now - stat.mtimeMs > 3_600_000) await fs.promises.unlink(file).catch(() => {});
    }
    if (entries.length <= maxEntries) return;
    entries.sort((a, b) => a[0] - b[0]);
    for (const [, file] of entries.slice(0, entries.length - Math.floor(maxEntries * 9 / 10))) await fs.promises.unlink(file).catch(() => {});
  };
  return {
    freshness,
    prune,
    async get(key) {
      try {
        const handle = await fs.promises.open(path(key), 'r');
        try {
          const buffer = new Uint8Array(1 << 20);
          const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
          return JSON.parse(new TextDecoder().decode(buffer.subarray(0, bytesRead)));
        } finally {
          await handle.close();
        }
      } catch {
        return undefined;  // none, unreadable or not JSON: probed, and rewritten
      }
    },
    async set(key, entry) {
      const target = path(key);
      const temporary = join(dir, `.${randomBytes(8).toString('hex')}.tmp`);
      try {
        await fs.promises.writeFile(temporary, JSON.stringify(entry));
        await fs.promises.rename(temporary, target);
      } catch {
        await fs.promises.unlink(temporary).catch(() => {});
        return;  // a cache that can't be written is only a slower one
      }
      if (writes++ % PRUNE_EVERY === 0) await prune();
    },
  };
}

export const nodeHost = {
  socketTransport,
  fileCache,

  async readFile(url) {
    const fs = await import('node:fs/promises');
    return fs.readFile(url);
  },

  /** A file's first `count` bytes (compat's imageSizeFromFile names HEIF brands with them). */
  async readHead(path, count) {
    const fs = await import('node:fs/promises');
    const handle = await fs.open(path, 'r');
    try {
      const head = new Uint8Array(count);
      const { bytesRead } = await handle.read(head, 0, count, 0);
      return head.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  },

  /** The module compiled synchronously from a file: URL (Node 20.16+), so Scanner needs no await. */
  loadSync(url) {
    const fs = builtin('node:fs');
    if (!fs || !(url instanceof URL) || url.protocol !== 'file:') return null;
    return new WebAssembly.Module(fs.readFileSync(url));
  },

  /**
   * Probes a file as the Swift command does (SPEC.md §4): regular files and block devices only
   * (opened without blocking, so a FIFO is refused rather than waited on), 64 KiB positioned
   * reads, long skips jumped.
   */
  async probeFile(path, options, makeScanner) {
    const fs = await import('node:fs');
    let handle;
    try {
      handle = await fs.promises.open(path, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
    } catch (error) {
      throw ioError(`cannot open: ${describe(error)}`, error);
    }
    try {
      let stat;
      try {
        stat = await handle.stat({ bigint: true });
      } catch (error) {
        throw ioError(`cannot read: ${describe(error)}`, error);
      }
      const scanner = makeScanner(fileScanOptions(stat, options));
      const buffer = new Uint8Array(READ_SIZE);
      try {
        return fileAnswer(await driveSeekable(scanner, positioned(async (position) => {
          const got = await handle.read(buffer, 0, READ_SIZE, position);
          return buffer.subarray(0, got.bytesRead);
        })));
      } finally {
        scanner.dispose();
      }
    } finally {
      await handle.close().catch(() => {});
    }
  },

  /** probeFile with synchronous reads, for callers that can't wait (a synchronous renderer). */
  probeFileSync(path, options, makeScanner) {
    const fs = builtin('node:fs');
    if (!fs) throw new ImageProbeError('unsupportedRuntime', 'imageprobe: probeFileSync() needs Node 20.16 or later (process.getBuiltinModule)');
    let fd;
    try {
      fd = fs.openSync(path, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
    } catch (error) {
      throw ioError(`cannot open: ${describe(error)}`, error);
    }
    try {
      let stat;
      try {
        stat = fs.fstatSync(fd, { bigint: true });
      } catch (error) {
        throw ioError(`cannot read: ${describe(error)}`, error);
      }
      const scanner = makeScanner(fileScanOptions(stat, options));
      const buffer = new Uint8Array(READ_SIZE);
      try {
        return fileAnswer(driveSeekableSync(scanner, positioned((position) => {
          const got = fs.readSync(fd, buffer, 0, READ_SIZE, position);
          return buffer.subarray(0, got);
        })));
      } finally {
        scanner.dispose();
      }
    } finally {
      try { fs.closeSync(fd); } catch { /* closing can't change the answer */ }
    }
  },
};

export { describe as describeSystemError };
