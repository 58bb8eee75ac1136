// node-host.mjs: what the package needs from Node (the "node" export condition only): reading
// the module from a file: URL, and probeFile. node:fs is imported dynamically (or taken with
// process.getBuiltinModule for the synchronous first load), never on the default path.
import { driveSeekable, ImageProbeError, READ_SIZE } from './core.mjs';

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

export const nodeHost = {
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
   * reads, long skips jumped. `options.fd`: probe an open descriptor from `options.position`.
   */
  async probeFile(path, options, makeScanner) {
    const fs = await import('node:fs');
    const { promises } = fs;
    let handle;
    try {
      handle = await promises.open(path, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
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
      if (stat.isDirectory()) throw ioError('is a directory (use -r to probe the files in it)');
      if (!stat.isFile() && !stat.isBlockDevice()) {
        throw ioError('not a regular file (use - to read a pipe or device from standard input)');
      }
      const scanOptions = { ...options };
      // A regular file's size lets formats with facts at the end use it; procfs files say 0.
      if (stat.isFile() && stat.size > 0n && scanOptions.inputLength === undefined) scanOptions.inputLength = stat.size;
      const scanner = makeScanner(scanOptions);
      const buffer = new Uint8Array(READ_SIZE);
      try {
        const result = await driveSeekable(scanner, async (position) => {
          // Node's FileHandle.read ignores a BigInt position (it reads on from the current one):
          // a number, exact below 2^53. No file reaches past that, so it is the end.
          if (position > 9007199254740991n) return new Uint8Array(0);
          let got;
          try {
            got = await handle.read(buffer, 0, READ_SIZE, Number(position));
          } catch (error) {
            if (error?.code === 'EINVAL') return new Uint8Array(0);
            throw ioError(`cannot read: ${describe(error)}`, error);
          }
          return buffer.subarray(0, got.bytesRead);
        });
        if (result.status === 'done') return result.info;
        throw result.error;
      } finally {
        scanner.dispose();
      }
    } finally {
      await handle.close().catch(() => {});
    }
  },
};

export { describe as describeSystemError };
