// build.mjs: what npm pack runs first (`prepack`) for @imageprobe/markdown-it. The package is
// its source as written (src/: ESM and the types); this only checks that it goes with this
// tree's imageprobe and copies the repository's LICENSE in:
//   - the version is imageprobe's own (0.2.0 with imageprobe 0.2.0: there is no peer API to
//     number it after, as the drop-ins do), and the dependency is `^` that version, so the
//     plugin is always published beside the imageprobe it was tested with.
//   node build.mjs
import { copyFileSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { root } from '../js/layout.mjs';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const manifest = JSON.parse(readFileSync(here('./package.json'), 'utf8'));
const imageprobe = JSON.parse(readFileSync(`${root}bindings/js/package.json`, 'utf8')).version;

const problems = [];
if (manifest.version !== imageprobe) problems.push(`version ${manifest.version}; with imageprobe ${imageprobe} it must be ${imageprobe}`);
if (manifest.dependencies?.imageprobe !== `^${imageprobe}`) {
  problems.push(`dependencies.imageprobe is ${manifest.dependencies?.imageprobe}; it must be ^${imageprobe}`);
}
const others = Object.keys(manifest.dependencies ?? {}).filter((name) => name !== 'imageprobe');
if (others.length) problems.push(`dependencies beyond imageprobe: ${others.join(', ')} (markdown-it is the user's: a peer)`);
if (problems.length) {
  for (const problem of problems) console.error(`${here('./package.json')}: ${problem}`);
  process.exit(1);
}
copyFileSync(`${root}LICENSE`, here('./LICENSE'));
console.log(`@imageprobe/markdown-it ${manifest.version} (imageprobe ^${imageprobe})`);
