// image-size 2.x's calls (Node), shared by the package's entries so that disableTypes() and
// setConcurrency() apply to imageSize() and imageSizeFromFile() alike, as in image-size.
// The answers come from imageprobe's public API over its WebAssembly module (./imageprobe/);
// the conventions (type names, messages, `images`) are compat-core.mjs's.
import { promises } from 'node:fs';
import { probeSync, Scanner } from './imageprobe/node.mjs';
import { createCompat } from './imageprobe/compat-core.mjs';

export const { imageSize, imageSizeFromFile, setConcurrency, disableTypes, types } = createCompat({ probeSync, Scanner }, promises);
