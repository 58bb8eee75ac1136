'use strict';
// Turns image-size's spec files (TypeScript) into CommonJS beside them, types dropped, with
// Debian's TypeScript (node-typescript):  node transpile.cjs FILE.ts...
const { readFileSync, writeFileSync } = require('node:fs');
const ts = require('/usr/share/nodejs/typescript');

for (const file of process.argv.slice(2)) {
  const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
    fileName: file,
  });
  writeFileSync(file.replace(/\.ts$/, '.js'), outputText);
}
