// build.mjs: lays out the publishable package in dist/ (npm pack runs it as `prepack`):
//   - the modules of src/ as they are, and one small entry per export condition;
//   - CommonJS bundles (node.cjs, web-node.cjs, compat.cjs) for require();
//   - the types, with ImageInfo's fields generated from src/fields.mjs;
//   - the WebAssembly modules: .build/wasm/imageprobe.wasm (Scripts/build-c.sh wasm) and
//     .build/wasm/imageprobe-web.wasm (Scripts/build-c.sh wasm-web) when it exists, else the full
//     module stands in for the web one (dist/BUILD.json says so), each passed through binaryen's
//     `wasm-opt -Oz` when it is installed (it changes no behaviour; check.sh installs it).
//   node build.mjs [--check]      (--check: only verify the generated types are what fields.mjs says)
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { INFO_FIELDS } from './src/fields.mjs';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const root = here('../../');
const dist = here('./dist/');
const source = (name) => readFileSync(here(`./src/${name}`), 'utf8');

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

function wasmOpt() {
  if (process.env.IMAGEPROBE_NO_WASM_OPT) return null;
  try {
    return execFileSync('wasm-opt', ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}
const optimizer = wasmOpt();
const sizes = (path) => {
  const bytes = readFileSync(path);
  return { bytes: bytes.length, gzipped: gzipSync(bytes, { level: 9 }).length };
};
function placeModule(from, name) {
  const to = `${dist}${name}`;
  const report = { from: from.slice(root.length), input: sizes(from) };
  if (optimizer) {
    // The features the toolchain's output uses; nothing else may be introduced. The control
    // flow rebuilt (--flatten --rereloop) between two -Oz runs, the names stripped before it:
    // with binaryen 108, 0.x's modules came out 854 and 419 bytes smaller gzipped (gzip -9)
    // than through -Oz alone; rebuilt a second time, then constants propagated, 234 and 107
    // less again. Nothing is addressed below 1024 (wasm-ld puts the data there and
    // up, the JavaScript's buffers go after __heap_base), as Emscripten also tells wasm-opt:
    // loads and stores then fold their constant offsets, 339 and 177 bytes less gzipped.
    const passes = ['--low-memory-unused', '-Oz', '--strip-debug', '--strip-producers', '--flatten', '--rereloop', '-Oz',
      '--flatten', '--rereloop', '-Oz', '--precompute-propagate', '-Oz', '--converge'];
    execFileSync('wasm-opt', [...passes, '--enable-bulk-memory', '--enable-sign-ext', '--enable-nontrapping-float-to-int',
      '--enable-mutable-globals', from, '-o', to], { stdio: 'inherit' });
    report.optimizer = `${optimizer}: ${passes.join(' ')}`;
  } else {
    copyFileSync(from, to);
    report.optimizer = null;
  }
  report.output = sizes(to);
  return report;
}
const build = { modules: {} };
build.modules['imageprobe.wasm'] = placeModule(full, 'imageprobe.wasm');
if (existsSync(web)) {
  build.modules['imageprobe-web.wasm'] = placeModule(web, 'imageprobe-web.wasm');
} else {
  build.modules['imageprobe-web.wasm'] = { ...placeModule(full, 'imageprobe-web.wasm'),
    note: 'Scripts/build-c.sh wasm-web has not produced .build/wasm/imageprobe-web.wasm: the full module stands in' };
  console.warn('imageprobe: no .build/wasm/imageprobe-web.wasm (Scripts/build-c.sh wasm-web): the web entry ships the full module');
}

// --- the ES modules and the entries -------------------------------------------------------
for (const name of ['core.mjs', 'fields.mjs', 'node-host.mjs', 'json.mjs', 'compat-core.mjs', 'cli.mjs']) {
  writeFileSync(`${dist}${name}`, source(name), { mode: name === 'cli.mjs' ? 0o755 : 0o644 });
}
const API = 'init, probe, probeSync, probeStream, probeURL, probeFile, Scanner';
const HEADER = '// Generated by build.mjs: an entry of the imageprobe package.\n';
function entry(wasm, platform) {
  const lines = [HEADER, "import { createApi } from './core.mjs';"];
  let locate = `new URL('./${wasm}', import.meta.url)`;
  let host = '';
  if (platform === 'node') {
    lines.push("import { nodeHost } from './node-host.mjs';");
    host = ', host: nodeHost';
  } else if (platform === 'workerd') {
    // Workers (wrangler) import a .wasm file as a compiled WebAssembly.Module.
    lines.push(`import wasmModule from './${wasm}';`);
    locate = 'wasmModule';
  } else if (platform === 'edge-light') {
    // Vercel's Edge Runtime (Next.js) imports `.wasm?module` as a compiled WebAssembly.Module.
    lines.push(`import wasmModule from './${wasm}?module';`);
    locate = 'wasmModule';
  }
  lines.push("export { ImageProbeError } from './core.mjs';",
    `export const { ${API} } = createApi({ locate: () => ${locate}${host} });`, '');
  return lines.join('\n');
}
const PLATFORMS = { '': 'default', '-node': 'node', '-workerd': 'workerd', '-edge-light': 'edge-light' };
for (const [suffix, platform] of Object.entries(PLATFORMS)) {
  writeFileSync(`${dist}${suffix ? suffix.slice(1) : 'index'}.mjs`, entry('imageprobe.wasm', platform));
  writeFileSync(`${dist}web${suffix}.mjs`, entry('imageprobe-web.wasm', platform));
  // image-size's API, loaded at import so imageSize() is synchronous as image-size's is.
  const from = suffix ? suffix.slice(1) : 'index';
  const node = platform === 'node';
  writeFileSync(`${dist}compat${suffix}.mjs`, [HEADER, `import { init, probeSync, probeFile } from './${from}.mjs';`,
    "import { createCompat } from './compat-core.mjs';", node ? "import { nodeHost } from './node-host.mjs';" : '', 'await init();',
    `export const { imageSize, imageSizeFromFile, disableTypes, types } = createCompat({ probeSync, probeFile${node ? ', readHead: nodeHost.readHead' : ''} });`,
    'export default imageSize;', ''].join('\n'));
}

// --- CommonJS: the same modules bundled, each in its own scope --------------------------------
function commonJS(name) {
  let code = source(name);
  const names = [];
  code = code.replace(/^import \{([^}]*)\} from '\.\/([a-z-]+)\.mjs';$/gm, (_, list, module) =>
    `const {${list.replace(/\bas\b/g, ':')}} = __${module.replace(/-/g, '_')};`);
  code = code.replace(/^export \{ (\w+) as (\w+) \};$/gm, (_, local, exported) => { names.push(`${exported}: ${local}`); return ''; });
  code = code.replace(/^export (const|let|function\*?|async function|class) (\w+)/gm, (_, kind, id) => { names.push(id); return `${kind} ${id}`; });
  if (/^(import|export) /m.test(code)) throw new Error(`${name}: an import or export build.mjs can't turn into CommonJS`);
  code = code.replace(/import\.meta\.url/g, '__importMetaUrl');
  return `const __${name.replace('.mjs', '').replace(/-/g, '_')} = (() => {\n${code}\nreturn { ${names.join(', ')} };\n})();\n`;
}
function bundle(wasm, compat) {
  const parts = ["'use strict';", '// Generated by build.mjs: the imageprobe package for require().',
    "const __importMetaUrl = require('node:url').pathToFileURL(__filename).href;"];
  for (const name of ['fields.mjs', 'core.mjs', 'node-host.mjs']) parts.push(commonJS(name));
  parts.push(`const __api = __core.createApi({ locate: () => new URL('./${wasm}', __importMetaUrl), host: __node_host.nodeHost });`);
  if (compat) {
    parts.push(commonJS('compat-core.mjs'),
      'const __compat = __compat_core.createCompat({ ...__api, readHead: __node_host.nodeHost.readHead });',
      'module.exports = { ...__compat, default: __compat.imageSize };');
  } else {
    parts.push(`const { ${API} } = __api;`, `module.exports = { ImageProbeError: __core.ImageProbeError, ${API} };`);
  }
  return parts.join('\n') + '\n';
}
writeFileSync(`${dist}node.cjs`, bundle('imageprobe.wasm', false));
writeFileSync(`${dist}web-node.cjs`, bundle('imageprobe-web.wasm', false));
writeFileSync(`${dist}compat.cjs`, bundle('imageprobe.wasm', true));

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
