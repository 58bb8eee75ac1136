// defects.mjs: the audit's defects of the JavaScript wrapper (issue 22), one check per run, so a
// wrapper that hangs in one is killed without holding up the others. Runs against any module
// with the old wrapper's calls (Scanner.create, feed, pendingSkip, skip, probe, probeStream):
// the package (every check passes) and the old Examples/js/imageprobe.mjs (each fails).
//   node defects.mjs MODULE_URL skips|chunks|empty-chunks|forgotten|trap
// Exit 0: passed; 1: failed (with the reason on standard output).
const [moduleURL, check] = process.argv.slice(2);
const mod = await import(moduleURL);
const { Scanner, probe, probeStream } = mod;

const fail = (message) => { console.log(`FAIL ${check}: ${message}`); process.exit(1); };
const pass = (message) => { console.log(`PASS ${check}: ${message}`); process.exit(0); };
const text = (value) => new TextEncoder().encode(value);
// A GIF's header: the size is known at byte 10.
const GIF = new Uint8Array([...text('GIF89a'), 3, 0, 2, 0, 0x80, 0, 0, 0, 0, 0, 255, 255, 255, 0x3B]);
const infoOf = (result) => result?.info ?? result;

function box(type, payload) {
  const bytes = new Uint8Array(8 + payload.length);
  new DataView(bytes.buffer).setUint32(0, bytes.length);
  bytes.set(text(type), 4);
  bytes.set(payload, 8);
  return bytes;
}
/** An AVIF whose second box declares a 64-bit size: the scanner's pending skip is size - 16. */
function hugeBox(size) {
  const large = new Uint8Array(16);
  const view = new DataView(large.buffer);
  view.setUint32(0, 1);
  large.set(text('mdat'), 4);
  view.setBigUint64(8, size);
  return new Uint8Array([...box('ftyp', new Uint8Array([...text('avif'), 0, 0, 0, 0, ...text('mif1avif')])), ...large]);
}

switch (check) {
  case 'skips': {
    // Exact above 2^53, and never negative at 2^63 and above.
    for (const size of [(1n << 60n) + 17n, (1n << 63n) + 1000n, (1n << 64n) - 4096n]) {
      const scanner = await Scanner.create();
      scanner.feed(hugeBox(size));
      const expected = size - 16n;
      const pending = scanner.pendingSkip;
      if (typeof pending !== 'bigint' || pending !== expected) fail(`pendingSkip for a ${size}-byte box is ${pending} (${typeof pending}), not ${expected}n`);
      const passed = scanner.skip(pending);
      if (typeof passed !== 'bigint' || passed !== expected) fail(`skip(${pending}) returned ${passed}, not ${expected}n`);
    }
    pass('pendingSkip and skip() are exact BigInts at 2^60 + 1, 2^63 + 984 and 2^64 - 4112');
    break;
  }
  case 'chunks': {
    // Anything that isn't a byte view is a TypeError, at once: no coercion, no allocation.
    const bad = ['GIF89a', 42, { length: 2 ** 28 }, [71, 73, 70], null];
    for (const chunk of bad) {
      const scanner = await Scanner.create();
      let threw = null;
      const started = Date.now();
      try { scanner.feed(chunk); } catch (error) { threw = error; }
      if (!(threw instanceof TypeError)) fail(`feed(${JSON.stringify(chunk)}) ${threw ? `threw ${threw}` : 'was accepted'} in ${Date.now() - started} ms`);
      const stream = new ReadableStream({ pull(controller) { controller.enqueue(chunk); } });
      const outcome = await Promise.race([
        probeStream(stream).then(() => 'answered', (error) => error),
        new Promise((resolve) => setTimeout(() => resolve('no answer within 5 s'), 5000)),
      ]);
      if (!(outcome instanceof TypeError)) fail(`probeStream of ${JSON.stringify(chunk)} chunks: ${outcome}`);
    }
    pass('strings, numbers, {length: 2**28}, arrays and null are TypeErrors in feed() and probeStream()');
    break;
  }
  case 'empty-chunks': {
    // A stream of empty chunks must leave the event loop its turns: a 1 s timer fires.
    let fired = false;
    const started = Date.now();
    setTimeout(() => { fired = true; }, 1000);
    const watchdog = setTimeout(() => fail('no answer within 8 s'), 8000);
    const stream = new ReadableStream({
      pull(controller) {
        if (fired) { controller.enqueue(GIF); controller.close(); } else controller.enqueue(new Uint8Array(0));
      },
    }, { highWaterMark: 0 });
    const result = infoOf(await probeStream(stream));
    clearTimeout(watchdog);
    if (!fired || result.width !== 3) fail(`answer ${JSON.stringify(result)}, timer fired: ${fired}`);
    pass(`the 1 s timer fired during a stream of empty chunks; answered after ${Date.now() - started} ms`);
    break;
  }
  case 'forgotten': {
    // 100,000 scanners never disposed, then a probe still answers.
    const started = Date.now();
    for (let index = 0; index < 100_000; index++) {
      let scanner;
      try {
        scanner = await Scanner.create();
        scanner.feed(GIF.subarray(0, 6));
      } catch (error) {
        fail(`scanner ${index + 1} could not be made: ${error}`);
      }
    }
    let result;
    try { result = infoOf(await probe(GIF)); } catch (error) { fail(`probe after 100,000 forgotten scanners: ${error}`); }
    if (result?.width !== 3) fail(`probe after 100,000 forgotten scanners: ${JSON.stringify(result)}`);
    pass(`100,000 forgotten scanners in ${Date.now() - started} ms, then probe() answered`);
    break;
  }
  case 'trap': {
    // A trap in one call leaves later calls (and other scanners) working.
    const trap = Symbol.for('imageprobe.testing.trap');
    const other = await Scanner.create();
    other.feed(GIF.subarray(0, 5));
    for (let index = 0; index < 1000; index++) {
      const scanner = await Scanner.create();
      if (typeof scanner[trap] !== 'function') fail('no testing hook to make the module trap');
      try { scanner[trap](); fail('the hook did not trap'); } catch (error) {
        if (error?.code !== 'trap' || error.name !== 'ImageProbeError') fail(`a trap gave ${error}`);
      }
    }
    const result = infoOf(await probe(GIF));
    const resumed = other.feed(GIF.subarray(5));
    if (result.width !== 3 || resumed.status !== 'done' || resumed.info.height !== 2) {
      fail(`after 1,000 traps: probe ${JSON.stringify(result)}, a scanner made before them ${JSON.stringify(resumed)}`);
    }
    pass('1,000 traps, then probe() and a scanner made before them still answer');
    break;
  }
  default:
    fail('unknown check');
}
