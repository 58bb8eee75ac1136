// probe.mjs: the WebAssembly module from Node. Prints one JSON line per file, the same as
// `imageprobe --json` (add --dimensions-only or --animation for those modes; animation mode
// prints the counts and durations, not the command's largestFrame and firstDelays).
//
//   Scripts/build-c.sh wasm && node Examples/js/probe.mjs [--dimensions-only|--animation] FILE...
//
// It reads as the command does (SPEC.md §4), so the byte counts agree too: 64 KiB reads,
// never more than the scanner asks for; a pending skip of 64 KiB or more is jumped (the read
// position moves), shorter ones and skipped bytes already read are passed with skip().
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { Scanner } from '../../.build/wasm/imageprobe.mjs';

const CHUNK = 64 * 1024;
const SEEK_THRESHOLD = 64 * 1024;

function json(path, result, dimensionsOnly, bytesRead, bytesSkipped) {
  const fields = [['path', JSON.stringify(path)]];
  if (result.status === 'done') {
    const i = result.info;
    fields.push(['format', JSON.stringify(i.format)], ['mime', JSON.stringify(i.mime)], ['width', i.width],
      ['height', i.height], ['orientation', i.orientation ?? 'null'], ['displayWidth', i.displayWidth],
      ['displayHeight', i.displayHeight]);
    if (i.bitDepth !== null) fields.push(['bitDepth', i.bitDepth]);
    if (i.alpha !== null) fields.push(['alpha', i.alpha]);
    if (i.progressive !== null) fields.push(['progressive', i.progressive]);
    if (i.animated !== null) fields.push(['animated', i.animated]);
    else if (!dimensionsOnly) fields.push(['animated', 'null']);
    if (i.frameCount !== null) fields.push(['frameCount', i.frameCount]);
    if (i.loopCount !== null) fields.push(['loopCount', i.loopCount]);
    if (i.duration !== null) fields.push(['duration', number(i.duration)]);
    if (i.playbackDuration !== null) fields.push(['playbackDuration', number(i.playbackDuration)]);
    if (i.preview) fields.push(['preview', JSON.stringify(i.preview)]);
    if (i.partial) fields.push(['partial', true], ['partialReason', JSON.stringify(i.partialReason)]);
  } else {
    fields.push(['error', JSON.stringify(result.error)], ['message', JSON.stringify(result.message)]);
    if (result.detectedFormat) fields.push(['detectedFormat', JSON.stringify(result.detectedFormat)]);
  }
  fields.push(['bytesRead', bytesRead]);
  if (bytesSkipped > 0) fields.push(['bytesSkipped', bytesSkipped]);
  return '{' + fields.map(([key, value]) => `"${key}":${value}`).join(',') + '}';
}

// As the command prints numbers: whole ones without a fraction, others to 3 places.
function number(value) {
  if (Number.isInteger(value)) return String(value);
  return String(Math.round(value * 1000) / 1000);
}

async function probeFile(path, mode) {
  const dimensionsOnly = mode === 'dimensionsOnly';
  let descriptor;
  try {
    descriptor = openSync(path, 'r');
  } catch (error) {
    return [`{"path":${JSON.stringify(path)},"error":"io","message":${JSON.stringify(`cannot open: ${error.message}`)},"bytesRead":0}`, 3];
  }
  try {
    const size = fstatSync(descriptor).size;
    const scanner = await Scanner.create({ mode, inputLength: size });
    const buffer = new Uint8Array(CHUNK);
    let position = 0, start = 0, end = 0, skippedAfterReading = 0;
    let result = scanner.last;
    while (result.status === 'needMore') {
      const pending = scanner.pendingSkip;
      if (pending > 0 && start < end) {
        const passed = scanner.skip(Math.min(pending, end - start));
        skippedAfterReading += passed;
        start += passed;
        result = scanner.last;
        continue;
      }
      if (pending >= SEEK_THRESHOLD && start === end) {
        position += pending;
        scanner.skip(pending);
        result = scanner.last;
        continue;
      }
      if (start === end) {
        const count = readSync(descriptor, buffer, 0, CHUNK, position);
        if (count === 0) {
          result = scanner.finish();
          break;
        }
        position += count;
        start = 0;
        end = count;
      }
      const take = Math.min(end - start, result.needed);
      result = scanner.feed(buffer.subarray(start, start + take));
      start += take;
    }
    const counts = result.status === 'done' ? result.info : result;
    scanner.dispose();
    return [json(path, result, dimensionsOnly, counts.bytesRead + skippedAfterReading, counts.bytesSkipped - skippedAfterReading),
      result.status === 'done' ? 0 : 1];
  } finally {
    closeSync(descriptor);
  }
}

const args = process.argv.slice(2);
const mode = args.includes('--dimensions-only') ? 'dimensionsOnly' : args.includes('--animation') ? 'animation' : 'full';
let worst = 0;
for (const path of args.filter((arg) => !arg.startsWith('--'))) {
  try {
    const [line, status] = await probeFile(path, mode);
    process.stdout.write(line + '\n');
    worst = Math.max(worst, status);
  } catch (error) {
    // A trap in the module (a bug): say which file, and go on with the next.
    process.stdout.write(`{"path":${JSON.stringify(path)},"error":"trap","message":${JSON.stringify(String(error))}}\n`);
    worst = 4;
  }
}
process.exitCode = worst;
