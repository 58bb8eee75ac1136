// build.mjs: lays out the publishable package in dist/ (npm pack runs it as `prepack`):
//   - the modules of src/ as they are, and one small entry per export condition;
//   - CommonJS bundles (node.cjs, web-node.cjs, compat.cjs) for require();
//   - the types, with ImageInfo's fields generated from src/fields.mjs;
//   - the WebAssembly modules: .build/wasm/imageprobe.wasm (Scripts/build-c.sh wasm) and
//     .build/wasm/imageprobe-web.wasm (Scripts/build-c.sh wasm-web) when it exists, else the full
//     module stands in for the web one (dist/BUILD.json says so), each passed through binaryen's
//     `wasm-opt -Oz` when it is installed (it changes no behaviour; check.sh installs it); the
//     pieces are layout.mjs's, which the drop-in packages (bindings/image-size,
//     bindings/probe-image-size) reuse.
//   node build.mjs [--check]      (--check: only verify the generated types are what fields.mjs says)
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { INFO_FIELDS } from './src/fields.mjs';
import { API, HEADER, commonJSBundle, entryModule, here, placeModule, root, source } from './layout.mjs';

const dist = here('./dist/');

// --- the types ----------------------------------------------------------------------------
const TS_TYPES = {
  u64: 'Count', i64: 'number', 'i64?': 'number | null', i32: 'number', 'i32?': 'number | null',
  'i32?0': 'number | null', tri: 'boolean | null', bool: 'boolean', u8: 'number', 'f64?': 'number | null', str: 'string', 'str?': 'string | null',
  cicp: 'CICP | null', dpi: '[x: number, y: number] | null',
};
function typesText() {
  const lines = INFO_FIELDS.filter((row) => row[3] === 'image').map(([, kind, js, , doc]) => {
    if (!(kind in TS_TYPES)) throw new Error(`fields.mjs: unknown kind ${kind}`);
    return `  /** ${doc} */\n  ${js}: ${TS_TYPES[kind]};`;
  });
  return source('index.d.ts').replace('/*IMAGE_INFO_FIELDS*/', lines.join('\n'));
}

if (process.argv.includes('--check')) {
  const built = readFileSync(`${dist}index.d.ts`, 'utf8');
  if (built !== typesText()) {
    console.error('dist/index.d.ts is not what src/fields.mjs and src/index.d.ts make: run node build.mjs');
    process.exit(1);
  }
  console.log('dist/index.d.ts matches src/fields.mjs');
  process.exit(0);
}

// --- the WebAssembly modules --------------------------------------------------------------
const full = `${root}.build/wasm/imageprobe.wasm`;
const web = `${root}.build/wasm/imageprobe-web.wasm`;
if (!existsSync(full)) {
  console.error(`${full} is missing: run Scripts/build-c.sh wasm first`);
  process.exit(1);
}
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });

const build = { modules: {} };
build.modules['imageprobe.wasm'] = placeModule(full, `${dist}imageprobe.wasm`);
if (existsSync(web)) {
  build.modules['imageprobe-web.wasm'] = placeModule(web, `${dist}imageprobe-web.wasm`);
} else {
  build.modules['imageprobe-web.wasm'] = { ...placeModule(full, `${dist}imageprobe-web.wasm`),
    note: 'Scripts/build-c.sh wasm-web has not produced .build/wasm/imageprobe-web.wasm: the full module stands in' };
  console.warn('imageprobe: no .build/wasm/imageprobe-web.wasm (Scripts/build-c.sh wasm-web): the web entry ships the full module');
}

// --- the ES modules and the entries -------------------------------------------------------
for (const name of ['core.mjs', 'fields.mjs', 'node-host.mjs', 'json.mjs', 'compat-core.mjs', 'cli.mjs']) {
  writeFileSync(`${dist}${name}`, source(name), { mode: name === 'cli.mjs' ? 0o755 : 0o644 });
}
const entry = entryModule;
const PLATFORMS = { '': 'default', '-node': 'node', '-workerd': 'workerd', '-edge-light': 'edge-light' };
for (const [suffix, platform] of Object.entries(PLATFORMS)) {
  writeFileSync(`${dist}${suffix ? suffix.slice(1) : 'index'}.mjs`, entry('imageprobe.wasm', platform));
  writeFileSync(`${dist}web${suffix}.mjs`, entry('imageprobe-web.wasm', platform));
  // image-size's API, loaded at import so imageSize() is synchronous as image-size's is.
  const from = suffix ? suffix.slice(1) : 'index';
  const node = platform === 'node';
  writeFileSync(`${dist}compat${suffix}.mjs`, [HEADER, `import { init, probeSync, Scanner } from './${from}.mjs';`,
    "import { createCompat } from './compat-core.mjs';", node ? "import { promises } from 'node:fs';" : '', 'await init();',
    `export const { imageSize, imageSizeFromFile, setConcurrency, disableTypes, types } = createCompat({ probeSync, Scanner }${node ? ', promises' : ''});`,
    'export default imageSize;', ''].join('\n'));
}

// --- CommonJS: the same modules bundled, each in its own scope --------------------------------
const plain = { tail: `const { ImageProbeError, ${API} } = __api;\nmodule.exports = { ImageProbeError, ${API} };` };
writeFileSync(`${dist}node.cjs`, commonJSBundle('imageprobe.wasm', plain));
writeFileSync(`${dist}web-node.cjs`, commonJSBundle('imageprobe-web.wasm', plain));
writeFileSync(`${dist}compat.cjs`, commonJSBundle('imageprobe.wasm', { modules: ['compat-core.mjs'],
  tail: "const __compat = __compat_core.createCompat(__api, require('node:fs').promises);\n" +
    'module.exports = { ...__compat, default: __compat.imageSize };' }));

// --- types ---------------------------------------------------------------------------------
const types = typesText();
for (const name of ['index.d.ts', 'index.d.cts', 'web.d.ts', 'web.d.cts']) writeFileSync(`${dist}${name}`, types);
for (const name of ['compat.d.ts', 'compat.d.cts']) writeFileSync(`${dist}${name}`, source('compat.d.ts'));

// --- the rest --------------------------------------------------------------------------------
copyFileSync(`${root}LICENSE`, here('./LICENSE'));
build.package = JSON.parse(readFileSync(here('./package.json'), 'utf8')).version;
writeFileSync(`${dist}BUILD.json`, JSON.stringify(build, null, 2) + '\n');
for (const [name, report] of Object.entries(build.modules)) {
  console.log(`dist/${name}: ${report.output.bytes} bytes, ${report.output.gzipped} gzipped` +
    ` (from ${report.from}: ${report.input.bytes}, ${report.input.gzipped} gzipped${report.optimizer ? '; wasm-opt -Oz' : ''})`);
}
