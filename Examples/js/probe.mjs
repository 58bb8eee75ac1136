// probe.mjs: the WebAssembly module from Node. Prints one JSON line per file, the same as
// `imageprobe --json` (add --dimensions-only or --animation for those modes; animation mode
// prints the counts and durations, not the command's largestFrame and firstDelays, which the C
// interface doesn't carry).
//
//   Scripts/build-c.sh wasm && node Examples/js/probe.mjs [--dimensions-only|--animation] FILE...
//
// It reads as the command does (SPEC.md §4) through the package's probeFile, so the byte counts
// agree too: 64 KiB reads, never more than the scanner asks for; a pending skip of 64 KiB or
// more is jumped, shorter ones and skipped bytes already read are passed with skip().
import { probeFile, ImageProbeError } from './imageprobe.mjs';
import { jsonLine } from '../../bindings/js/src/json.mjs';

const args = process.argv.slice(2);
const mode = args.includes('--dimensions-only') ? 'dimensionsOnly' : args.includes('--animation') ? 'animation' : 'full';
let worst = 0;
for (const path of args.filter((arg) => !arg.startsWith('--'))) {
  try {
    const info = await probeFile(path, { mode });
    process.stdout.write(jsonLine(path, { info }, mode) + '\n');
  } catch (error) {
    if (!(error instanceof ImageProbeError)) throw error;
    // A trap in the module (a bug) is reported as "trap" for that file; the module is
    // instantiated afresh, and the next file goes on.
    process.stdout.write(jsonLine(path, { error }, mode) + '\n');
    worst = Math.max(worst, error.code === 'trap' ? 4 : error.code === 'io' ? 3 : 1);
  }
}
process.exitCode = worst;
