// Streaming test for the WebAssembly module: every file given is read through probeStream in
// seeded random chunk sizes; the answer must equal a Scanner fed the whole bytes at once, and
// the stream must be cancelled right after the answer (bytes pulled ≤ bytes the scanner read +
// one chunk).
//   node Examples/js/test.mjs FILE...       (exit 1 on any failure)
import { readFileSync } from 'node:fs';
import { Scanner, probeStream } from '../../.build/wasm/imageprobe.mjs';

let seed = 2026;
const random = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };

function stream(bytes, sizes, log) {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) { controller.close(); return; }
      const size = sizes();
      const chunk = bytes.slice(offset, offset + size);
      offset += chunk.length;
      log.pulled += chunk.length;
      log.largest = Math.max(log.largest, chunk.length);
      controller.enqueue(chunk);
    },
    cancel() { log.cancelled = true; },
  }, { highWaterMark: 0 });
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
// An outcome as plain data: the image's facts, or the error's code, message and counts.
const outcome = (result) => (result.status === 'done' ? { info: result.info }
  : { error: { code: result.error.code, message: result.error.message, detectedFormat: result.error.detectedFormat,
    bytesRead: result.error.bytesRead, bytesSkipped: result.error.bytesSkipped } });
const settled = async (promise) => {
  try { return outcome({ status: 'done', info: await promise }); } catch (error) { return outcome({ status: 'unsupported', error }); }
};
let failures = 0, checks = 0, cancelledEarly = 0;
for (const path of process.argv.slice(2)) {
  const bytes = new Uint8Array(readFileSync(path));
  const whole = await Scanner.create();
  whole.feed(bytes);
  const expected = outcome(whole.finish());
  whole.dispose();
  for (const [name, sizes] of [['1 byte', () => 1], ['random 1-4096', () => 1 + Math.floor(random() * 4096)],
                               ['random 1-64', () => 1 + Math.floor(random() * 64)]]) {
    const log = { pulled: 0, largest: 0, cancelled: false };
    const result = await settled(probeStream(stream(bytes, sizes, log)));
    checks++;
    const counts = result.info ?? result.error;
    const problems = [];
    if (!same(result, expected)) problems.push(`answer ${JSON.stringify(result)} != ${JSON.stringify(expected)}`);
    if (log.pulled > counts.bytesRead + log.largest) problems.push(`pulled ${log.pulled} > read ${counts.bytesRead} + chunk ${log.largest}`);
    if (log.pulled < bytes.length && !log.cancelled) problems.push('stream not cancelled at the answer');
    if (log.cancelled) cancelledEarly++;
    if (problems.length) {
      failures++;
      console.log(`FAIL ${path} (${name}): ${problems.join('; ')}`);
    }
  }
}
console.log(`${checks} streamed probes, ${failures} failed, ${cancelledEarly} cancelled before the end of the file`);
process.exitCode = failures ? 1 : 0;
