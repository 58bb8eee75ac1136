// Probes per second through the WebAssembly module in Node, every file whole from memory, full
// mode (as `imageprobe-bench repeat`). One Scanner per probe, as a caller would.
//   node Benchmarks/js/bench.mjs ROUNDS FILE...
import { readFileSync } from 'node:fs';
import { load, Scanner } from '../../.build/wasm/imageprobe.mjs';

const [rounds, ...paths] = process.argv.slice(2);
const files = paths.map((path) => new Uint8Array(readFileSync(path)));
const runtime = await load();
let total = 0;
const started = process.hrtime.bigint();
for (let round = 0; round < Number(rounds); round++) {
  for (const bytes of files) {
    const scanner = new Scanner(runtime);
    let result = scanner.feed(bytes);
    if (result.status === 'needMore') result = scanner.finish();
    if (result.status === 'done') total += result.info.width;
    scanner.dispose();
  }
}
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
console.log(total);
const probes = Number(rounds) * files.length;
console.error(`node (wasm): ${probes} probes in ${seconds.toFixed(3)} s, ${Math.round(probes / seconds)} probes/s`);
