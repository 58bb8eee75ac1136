// The fields of `imageprobe_info` (Sources/CImageProbe/include/imageprobe.h), in the order the
// struct declares them: the ONE list of them in the JavaScript package. Offsets come from the
// module's `imageprobe_info_layout(index)`, so a row's place in this list is its index there.
//
// Adding a field to the C struct is one line here: the results (ImageInfo), the TypeScript
// types (generated from this list by build.mjs), the CLI's JSON and the checks all follow.
//
// Columns: [C name, kind, JavaScript name (null: not in results), group, what it means]
//   kinds:  u64 count (number, BigInt above 2^53) · i64 / i32 always known · i64? / i32? where
//           -1 is unknown (null) · i32?0 where 0 is "none" (null) · tri int8 1/0/-1 as
//           true/false/null · bool int8 · u8 · f64? NaN is null · str · str? "" is null ·
//           cicp uint8[4] read with the `has_cicp` row: [primaries, transfer, matrix,
//           fullRange (a boolean)], or null when has_cicp is 0 · dpi int32 read with the next
//           row (`dpi_y`): [x, y], or null when either is 0
//   groups: image (an ImageInfo fact) · count (bytes read and skipped) · failure (why a scan
//           failed) · fetch (the range planner's failures) · internal
export const INFO_FIELDS = [
  ['needed', 'u64', null, 'internal', 'needMore: at least this many more bytes'],
  ['bytes_read', 'u64', 'bytesRead', 'count', 'bytes read (fed to the scanner), not jumped'],
  ['bytes_skipped', 'u64', 'bytesSkipped', 'count', 'bytes jumped over without reading'],
  ['format', 'i32', null, 'internal', 'IMAGEPROBE_FORMAT_* (the name is `format`)'],
  ['format_name', 'str', 'format', 'image', 'format name: "jpeg", "png", ... (SPEC.md §3)'],
  ['mime_type', 'str', 'mime', 'image', 'media type: "image/jpeg", ...'],
  ['width', 'i64', 'width', 'image', 'stored width in pixels, before any orientation'],
  ['height', 'i64', 'height', 'image', 'stored height in pixels, before any orientation'],
  ['display_width', 'i64', 'displayWidth', 'image', 'width after a HEIF clean aperture and the orientation'],
  ['display_height', 'i64', 'displayHeight', 'image', 'height after a HEIF clean aperture and the orientation'],
  ['orientation', 'i32?0', 'orientation', 'image', 'EXIF orientation 1-8, or null when the file records none'],
  ['bit_depth', 'i32?', 'bitDepth', 'image', 'bits per sample (or per pixel, per format), or null'],
  ['has_alpha', 'tri', 'alpha', 'image', 'whether there is an alpha channel, or null when unknown'],
  ['is_progressive', 'tri', 'progressive', 'image', 'progressive JPEG or interlaced PNG, or null'],
  ['is_animated', 'tri', 'animated', 'image', 'whether frames are shown in turn, or null when unknown'],
  ['is_partial', 'bool', 'partial', 'image', 'true when a limit cut the scan short after the size was known'],
  ['frame_count', 'i64?', 'frameCount', 'image', 'frames (or ICO/ICNS/DCX/PVR entries), or null'],
  ['loop_count', 'i64?', 'loopCount', 'image', 'loop count as stored (0 forever), or null'],
  ['duration_ms', 'f64?', 'duration', 'image', 'animation mode: the sum of the declared delays, ms, or null'],
  ['playback_duration_ms', 'f64?', 'playbackDuration', 'image', 'animation mode: as browsers play it, ms, or null'],
  ['eps_preview', 'str?', 'preview', 'image', 'a DOS EPS file\'s preview: "tiff" or "wmf", or null'],
  ['hdr', 'tri', 'hdr', 'image', 'a PQ or HLG transfer, or a gain map; or null when the file can\'t tell'],
  ['gain_map', 'tri', 'gainMap', 'image', 'a gain map accompanies the image (ISO 21496-1, Apple, Ultra HDR), or null'],
  ['icc_profile', 'tri', 'iccProfile', 'image', 'an ICC profile is embedded, or null'],
  ['interlaced', 'tri', 'interlaced', 'image', 'PNG Adam7, a GIF\'s first image interlaced, or null'],
  ['motion_photo', 'tri', 'motionPhoto', 'image', 'an embedded video follows the image (a motion photo), or null'],
  ['has_cicp', 'u8', null, 'internal', '1 when `cicp` holds the file\'s CICP (read with cicp)'],
  ['cicp', 'cicp', 'cicp', 'image', 'the CICP (ITU-T H.273) as [colour primaries, transfer, matrix coefficients, full range], or null'],
  ['dpi_x', 'dpi', 'dpi', 'image', 'the resolution as [x, y] dots per inch, or null when the file states none'],
  ['dpi_y', 'i32', null, 'internal', 'dots per inch vertically (read with dpi_x); 0 when none'],
  ['error', 'str', null, 'failure', 'the failure code (or, with partial, the limit that cut the scan)'],
  ['message', 'str', null, 'failure', 'a sentence for people'],
  ['detected_format', 'i32', null, 'internal', 'IMAGEPROBE_FORMAT_* recognised before a failure'],
  ['detected_format_name', 'str', null, 'failure', 'the format recognised before a failure'],
  ['fetch_error', 'str', null, 'fetch', 'the range planner\'s failure code'],
  ['http_status', 'i32', null, 'fetch', 'the HTTP status that caused the failure, or 0'],
];

// The Swift command's JSON (SPEC.md §4) prints the image fields in this table's order, but for
// `orientation`, which it prints right after `height`; the extra facts, which it prints as hdr,
// gainMap, cicp, iccProfile, dpi, interlaced, motionPhoto, then `preview`; and `partial` (with
// partialReason), which it prints after `preview`. The moves are made in this object's order.
// CLI_RULES says when a field is printed; a field not named there is printed when it isn't
// null, in table order: right for new facts.
export const CLI_ORDER_OVERRIDES = { orientation: 'height', cicp: 'gainMap', dpi: 'iccProfile', preview: 'motionPhoto',
  partial: 'preview' };
export const CLI_RULES = {
  format: 'always', mime: 'always', width: 'always', height: 'always', orientation: 'always',
  displayWidth: 'always', displayHeight: 'always',
  animated: 'unlessDimensionsOnly',  // null printed too, except in dimensions-only mode
  partial: 'partial',                // printed as "partial":true,"partialReason":...
  duration: 'number', playbackDuration: 'number',
  // Full and animation modes' extra facts: always printed there (null when unknown), never in
  // dimensions-only mode.
  hdr: 'extra', gainMap: 'extra', cicp: 'extra', iccProfile: 'extra', dpi: 'extra', interlaced: 'extra', motionPhoto: 'extra',
};

// The other structs the package writes or reads, by field name, in declaration order.
export const OPTIONS_FIELDS = ['mode', 'max_bytes', 'input_length', 'max_width', 'max_height', 'max_entries', 'max_depth',
  'max_pixels'];
export const PLANNER_OPTIONS_FIELDS = ['scan', 'max_bytes', 'max_requests', 'max_metadata_requests', 'max_redirects',
  'request_growth', 'initial_range', 'minimum_request', 'jump_threshold'];
export const PLAN_REQUEST_FIELDS = ['first', 'last', 'if_range', 'port', 'secure', 'wait_seconds'];
