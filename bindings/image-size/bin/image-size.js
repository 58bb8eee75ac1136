#!/usr/bin/env node
'use strict';
// The `image-size` command, as image-size 2.x prints it: one line per image (an icon's or a
// HEIF's entries each on a line), `WIDTHxHEIGHT - FILE (TYPE)` in green and grey, and a
// file's error in red. Files are answered in the order given.
//   image-size FILE...
const fs = require('node:fs');
const path = require('node:path');
const { imageSizeFromFile } = require('../dist/fromFile.cjs');

const files = process.argv.slice(2);
if (!files.length) {
  console.error('Usage: image-size image1 [image2] [image3] ...');
  process.exit(-1);
}

const red = ['\x1B[31m', '\x1B[39m'];
const grey = ['\x1B[90m', '\x1B[39m'];
const green = ['\x1B[32m', '\x1B[39m'];
const colorize = (text, color) => color[0] + text + color[1];

(async () => {
  for (const image of files) {
    try {
      if (!fs.existsSync(path.resolve(image))) {
        console.error("file doesn't exist - ", image);
        continue;
      }
      const result = await imageSizeFromFile(image);
      for (const size of result.images || [result]) {
        const type = size.type ?? result.type;
        const greyType = type ? colorize(` (${type})`, grey) : '';
        console.info(`${colorize(size.width, green)}${colorize('x', grey)}${colorize(size.height, green)} - ${colorize(image, grey)}${greyType}`);
      }
    } catch (error) {
      console.error(colorize(error.message, red), '-', image);
    }
  }
})();
