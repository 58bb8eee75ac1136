// peers.mjs: imageprobe against image-size 2.x and probe-image-size 7.x in one run, on a corpus
// with ground truth (shared/corpus: manifest.jsonl): accuracy, probes per second in Node (bytes
// in memory, each library's synchronous call), and bytes read from files. Prints a Markdown table.
//   node bench/peers.mjs --peers DIR --corpus DIR [--package ENTRY] [--rounds N]
// DIR from bench/peers-setup.sh; ENTRY: the imageprobe module to test (default: dist/node.mjs).
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

const args = Object.fromEntries(process.argv.slice(2).reduce((pairs, arg, index, all) =>
  (arg.startsWith('--') ? [...pairs, [arg.slice(2), all[index + 1]]] : pairs), []));
const require = createRequire(import.meta.url);
const entry = args.package ? pathToFileURL(args.package).href : new URL('../dist/node.mjs', import.meta.url).href;
const imageprobe = await import(entry);
const imageSize = require(join(args.peers, 'image-size/out/index.js'));
const probeImageSize = require(join(args.peers, 'node_modules/probe-image-size'));
const rounds = Number(args.rounds ?? 5);
const manifest = readFileSync(join(args.corpus, 'manifest.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
const inputs = manifest.map((row) => ({ ...row, path: join(args.corpus, row.file), bytes: readFileSync(join(args.corpus, row.file)) }));

const tools = {
  imageprobe: {
    sync: (bytes) => imageprobe.probeSync(bytes),
    async fileBytes(path) {
      try { const info = await imageprobe.probeFile(path); return Number(info.bytesRead); } catch (error) { return Number(error.bytesRead ?? 0); }
    },
  },
  'image-size 2.0.2': {
    sync: (bytes) => imageSize.imageSize(bytes),
    // imageSizeFromFile reads the first 512 KiB (or the whole smaller file), then calls imageSize.
    fileBytes: async (path) => Math.min(statSync(path).size, 512 * 1024),
  },
  'probe-image-size 7.3.0': {
    sync: (bytes) => { const result = probeImageSize.sync(bytes); if (!result) throw new Error('unrecognised'); return result; },
    // The stream probe: bytes the file stream delivered (64 KiB reads) before the answer.
    fileBytes: (path) => new Promise((resolve) => {
      const stream = createReadStream(path, { highWaterMark: 64 * 1024 });
      let delivered = 0;
      stream.on('data', (chunk) => { delivered += chunk.length; });
      probeImageSize(stream).then(() => resolve(delivered), () => resolve(delivered));
    }),
  },
};

const rows = [];
for (const [name, tool] of Object.entries(tools)) {
  let sized = 0, oriented = 0, orientations = 0, refused = 0, crashed = 0, wrong = 0;
  for (const input of inputs) {
    let result = null;
    try { result = tool.sync(input.bytes); } catch (error) { if (!(error instanceof Error)) crashed++; }
    if (input.expect === 'error') { if (!result) refused++; continue; }
    if (result && result.width === input.width && result.height === input.height) sized++;
    else if (result) wrong++;
    if (input.orientation !== null && ['jpeg', 'png', 'webp', 'tiff'].includes(input.format)) {
      orientations++;
      if (result?.orientation === input.orientation) oriented++;
    }
  }
  // Speed: every file, `rounds` times, after a warm-up round.
  const once = () => { for (const input of inputs) { try { tool.sync(input.bytes); } catch { /* counted above */ } } };
  once();
  const started = process.hrtime.bigint();
  for (let round = 0; round < rounds; round++) once();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  let bytes = 0;
  for (const input of inputs) bytes += await tool.fileBytes(input.path);
  rows.push({ name, sized, wrong, refused, oriented, orientations, crashed, perSecond: Math.round((inputs.length * rounds) / seconds), bytes });
}

const ok = inputs.filter((input) => input.expect === 'ok').length;
const bad = inputs.length - ok;
const total = inputs.reduce((sum, input) => sum + input.bytes.length, 0);
console.log(`corpus: ${inputs.length} files (${ok} images, ${bad} broken on purpose), ${total} bytes; Node ${process.version}; ${rounds} timed rounds\n`);
console.log('| library | right size (of ' + ok + ') | wrong size | broken files refused (of ' + bad + ') | EXIF orientation right (of the JPEG/PNG/WebP/TIFF files that have one) | probes/s in memory | bytes read from the files |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const row of rows) {
  console.log(`| ${row.name} | ${row.sized} | ${row.wrong} | ${row.refused} | ${row.oriented} of ${row.orientations} | ${row.perSecond.toLocaleString('en')} | ${row.bytes.toLocaleString('en')} |`);
}
