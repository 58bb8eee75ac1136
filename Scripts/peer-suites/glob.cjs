'use strict';
// The runner's stand-in for the `glob` package, which image-size's specs use as
// globSync('specs/images/valid/**/*.*'): `**` any folders, `*` any name part; sorted paths.
const { readdirSync } = require('node:fs');
const { join } = require('node:path');

function walk(folder) {
  const found = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) found.push(...walk(path)); else found.push(path);
  }
  return found;
}

function sync(pattern) {
  const base = pattern.slice(0, pattern.search(/[*?[]/)).replace(/\/[^/]*$/, '') || '.';
  const source = pattern.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*\*\//g, '\u0000').replace(/\*/g, '[^/]*')
    .replace(/\?/g, '[^/]').replace(/\u0000/g, '(?:[^/]+/)*');
  const regex = new RegExp(`^${source}$`);
  return walk(base).filter((path) => regex.test(path)).sort();
}

module.exports = { sync, globSync: sync };
