// `image-size` elsewhere (browsers, bundlers, Deno, workers): imageSize over bytes. The module
// is loaded at import (top-level await), so imageSize() stays synchronous as image-size's is.
import { init, probeSync, Scanner } from './imageprobe/index.mjs';
import { createCompat } from './imageprobe/compat-core.mjs';

await init();
export const { imageSize, disableTypes, types } = createCompat({ probeSync, Scanner });
export default imageSize;
