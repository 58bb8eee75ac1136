// imageprobe.mjs: the JavaScript package (bindings/js, published as `imageprobe`) over the
// module Scripts/build-c.sh builds, for the examples and the repository's checks. Scripts/build-c.sh
// copies this file beside the module (.build/wasm/); both places are two levels under the
// repository, so the paths below hold from either. Applications use the package:
//
//   npm install imageprobe      import { probe, probeStream, probeURL, probeFile } from 'imageprobe';
//
// Results: probe(), probeStream(), probeFile() and probeURL() resolve to the image's facts under
// the command's JSON names (format, mime, width, height, orientation, ...) and reject with an
// ImageProbeError whose `code` is the command's `error`; a Scanner's feed() and finish() return
// { status: 'needMore', needed } | { status: 'done', info } | { status: 'unsupported', error }.
import { createApi } from '../../bindings/js/src/core.mjs';
import { nodeHost } from '../../bindings/js/src/node-host.mjs';

export { ImageProbeError } from '../../bindings/js/src/core.mjs';
export const { init, probe, probeSync, probeStream, probeURL, probeFile, Scanner } = createApi({
  locate: () => new URL('../../.build/wasm/imageprobe.wasm', import.meta.url),
  host: nodeHost,
});
