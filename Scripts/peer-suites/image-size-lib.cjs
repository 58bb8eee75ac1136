'use strict';
// The runner's stand-in for image-size's own lib/ (its specs import ../lib/index, ../lib/fromFile,
// ../lib/detector and ../lib/types/interface): each file re-exports the INSTALLED package under
// test, named by PEER_TARGET ("image-size", the alias install, or "imageprobe/compat").
// Scripts/peer-suites.sh copies this file to lib/index.js, lib/fromFile.js and lib/detector.js.
const target = require(process.env.PEER_TARGET || 'image-size');
const fromFile = process.env.PEER_TARGET && process.env.PEER_TARGET !== 'image-size' ? target : require('image-size/fromFile');

module.exports = {
  ...target,
  imageSizeFromFile: fromFile.imageSizeFromFile,
  setConcurrency: fromFile.setConcurrency,
  // valid.spec.ts names each test's group by the detected type: the package's own answer.
  detector(input) {
    try { return target.imageSize(input).type; } catch { return undefined; }
  },
};
