// json.mjs: results printed exactly as the Swift command prints them (SPEC.md §4): its JSON
// Lines (`--json`) and its text lines. Used by the package's CLI, Examples/js/probe.mjs and the
// tests. The image fields come from fields.mjs: a new field is printed without a change here.
import { INFO_FIELDS, CLI_ORDER_OVERRIDES, CLI_RULES } from './fields.mjs';

/** The image fields in the command's order. */
const IMAGE_ORDER = (() => {
  const names = INFO_FIELDS.filter((row) => row[3] === 'image').map((row) => row[2]);
  for (const [name, after] of Object.entries(CLI_ORDER_OVERRIDES)) {
    names.splice(names.indexOf(name), 1);
    names.splice(names.indexOf(after) + 1, 0, name);
  }
  return names;
})();

/** A JSON string as the command writes one: controls, C1 controls, U+2028/9 as \u escapes. */
export function jsonString(text) {
  let out = '"';
  for (const character of String(text)) {
    const code = character.codePointAt(0);
    if (character === '"') out += '\\"';
    else if (character === '\\') out += '\\\\';
    else if (character === '\n') out += '\\n';
    else if (character === '\r') out += '\\r';
    else if (character === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7F || (code >= 0x80 && code < 0xA0) || code === 0x2028 || code === 0x2029) {
      out += '\\u' + code.toString(16).padStart(4, '0');
    } else out += character;
  }
  return out + '"';
}

/** A number as the command writes one: whole numbers without a fraction, others to 3 places. */
export function jsonNumber(value) {
  if (!Number.isFinite(value)) return 'null';
  if (value === Math.round(value) && Math.abs(value) < 1e15) return String(value);
  const rounded = Math.sign(value) * Math.round(Math.abs(value) * 1000) / 1000;
  return String(rounded);
}

/** A value as JSON: strings escaped as the command escapes them, arrays (cicp, dpi) as [a,b]. */
const plain = (value) => (typeof value === 'string' ? jsonString(value) : value === null || value === undefined ? 'null'
  : Array.isArray(value) ? `[${value.map(plain).join(',')}]` : String(value));

/**
 * One line of `imageprobe --json` for `path` and an outcome: `{ info }` (an image: probe's
 * result) or `{ error }` (an ImageProbeError). `mode`: "full", "dimensionsOnly" or "animation".
 * URL outcomes (with bytesTransferred) end with bytesTransferred and requests, files with
 * bytesRead (and bytesSkipped when any).
 */
export function jsonLine(path, outcome, mode = 'full') {
  const fields = [['path', jsonString(path)]];
  const counts = outcome.info ?? outcome.error;
  if (outcome.info) {
    const info = outcome.info;
    for (const name of IMAGE_ORDER) {
      const value = info[name];
      const rule = CLI_RULES[name];
      if (rule === 'always') fields.push([name, plain(value)]);
      else if (rule === 'unlessDimensionsOnly') {
        if (value !== null || mode !== 'dimensionsOnly') fields.push([name, plain(value)]);
      } else if (rule === 'partial') {
        if (value) fields.push(['partial', 'true'], ['partialReason', jsonString(info.partialReason)]);
      } else if (rule === 'number') {
        if (value !== null) fields.push([name, jsonNumber(value)]);
      } else if (rule === 'extra') {
        if (mode !== 'dimensionsOnly') fields.push([name, plain(value)]);
      } else if (value !== null && value !== undefined) fields.push([name, plain(value)]);
    }
  } else {
    const error = outcome.error;
    fields.push(['error', jsonString(error.code)], ['message', jsonString(error.message)]);
    if (error.status) fields.push(['status', String(error.status)]);
    if (error.width !== undefined && error.width !== null) {
      // A refused image (maxPixels: "tooManyPixels"): its format and size, as the command prints them.
      fields.push(['detectedFormat', jsonString(error.format ?? error.detectedFormat)], ['width', String(error.width)],
        ['height', String(error.height)]);
      if (error.frameCount !== null && error.frameCount !== undefined) fields.push(['frameCount', String(error.frameCount)]);
    } else if (error.detectedFormat) fields.push(['detectedFormat', jsonString(error.detectedFormat)]);
  }
  if (counts?.bytesTransferred !== undefined) {
    fields.push(['bytesTransferred', String(counts.bytesTransferred)], ['requests', String(counts.requests)]);
  } else {
    fields.push(['bytesRead', String(counts?.bytesRead ?? 0)]);
    if (counts?.bytesSkipped > 0) fields.push(['bytesSkipped', String(counts.bytesSkipped)]);
  }
  return '{' + fields.map(([key, value]) => `"${key}":${value}`).join(',') + '}';
}

/** Seconds with two decimals from milliseconds, rounded half up, as the command writes them. */
function seconds(milliseconds) {
  const micros = Math.round(milliseconds * 1000);
  const hundredths = Math.floor((Math.floor(micros / 5000) + 1) / 2);
  return `${Math.floor(hundredths / 100)}.${String(hundredths % 100).padStart(2, '0')}`;
}

/** A name with control characters escaped, as `ls -b` (and the command's text output) shows it. */
export function escapeName(text) {
  let out = '';
  for (const character of String(text)) {
    const code = character.codePointAt(0);
    if (character === '\\') out += '\\\\';
    else if (character === '\n') out += '\\n';
    else if (character === '\t') out += '\\t';
    else if (character === '\r') out += '\\r';
    else if (code < 0x20 || code === 0x7F) out += '\\x' + code.toString(16).toUpperCase().padStart(2, '0');
    else if (code >= 0x80 && code < 0xA0) out += '\\xC2\\x' + code.toString(16).toUpperCase();
    else if (code === 0x2028 || code === 0x2029) out += '\\u' + code.toString(16);
    else out += character;
  }
  return out;
}

/** One line of the command's text output. */
export function textLine(path, outcome) {
  const name = escapeName(path);
  const counts = outcome.info ?? outcome.error;
  let tally = `${counts?.bytesRead ?? 0} bytes read`;
  if (counts?.bytesSkipped > 0) tally += `, ${counts.bytesSkipped} skipped`;
  if (counts?.bytesTransferred !== undefined) {
    tally = `${counts.bytesTransferred} bytes transferred in ${counts.requests} request${counts.requests === 1 ? '' : 's'}`;
  }
  if (outcome.error) {
    const error = outcome.error;
    const format = error.detectedFormat ? ` (${error.detectedFormat})` : '';
    // A refused image (tooManyPixels) ends with what was refused.
    const refused = error.width !== undefined && error.width !== null ? `: ${error.format} ${error.width}x${error.height}` : '';
    // Nothing to read at all is "truncated" to the scanner; say what it is, as the command does.
    const empty = error.code === 'truncated' && counts.bytesTransferred === undefined && !(counts.bytesRead > 0) && !(counts.bytesSkipped > 0);
    const message = empty ? 'the input is empty' : escapeName(error.message);
    return `${name}: error: ${error.code}${format}: ${message}${refused} [${tally}]`;
  }
  const i = outcome.info;
  let text = `${name}: ${i.format} ${i.width}x${i.height}`;
  if (i.orientation) text += `, orientation ${i.orientation}`;
  if (i.bitDepth !== null) text += `, ${i.bitDepth}-bit`;
  if (i.alpha === true) text += ', alpha';
  if (i.progressive === true) text += i.format === 'png' ? ', interlaced' : ', progressive';
  if (i.animated === true && i.frameCount === null) text += ', animated';
  if (i.frameCount !== null) text += `, ${i.frameCount} ${i.frameCount === 1 ? 'frame' : 'frames'}`;
  if (i.loopCount !== null) text += i.loopCount === 0 ? ', loop forever' : `, loop ${i.loopCount}`;
  if (i.duration !== null && i.playbackDuration !== null) {
    text += `, ${seconds(i.duration)} s`;
    if (seconds(i.playbackDuration) !== seconds(i.duration)) text += ` (played ${seconds(i.playbackDuration)} s)`;
  }
  if (i.dpi) text += i.dpi[0] === i.dpi[1] ? `, ${i.dpi[0]} dpi` : `, ${i.dpi[0]}x${i.dpi[1]} dpi`;
  if (i.iccProfile === true) text += ', ICC profile';
  if (i.cicp) text += `, CICP ${i.cicp[0]}/${i.cicp[1]}/${i.cicp[2]} ${i.cicp[3] ? 'full' : 'limited'}`;
  if (i.hdr === true) text += i.gainMap === true ? ', HDR gain map' : ', HDR';
  if (i.interlaced === true && i.progressive !== true) text += ', interlaced';
  if (i.motionPhoto === true) text += ', motion photo';
  if (i.preview) text += `, ${i.preview} preview`;
  if (i.partial) text += `, partial (${i.partialReason})`;
  if (i.orientation >= 5) text += ` (displayed ${i.displayWidth}x${i.displayHeight})`;
  return `${text} [${tally}]`;
}
