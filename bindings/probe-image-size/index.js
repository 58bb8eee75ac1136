'use strict';
// probe-image-size 7.x's API over imageprobe: probe(src [, options | keepOpen]) for a URL (a
// string) or a Node stream (anything with .on and .emit), probe.sync(bytes), probe.Error.
const probeStream = require('./stream');
const probeHttp = require('./http');

module.exports = function probe(src, options) {
  if (src && typeof src.on === 'function' && typeof src.emit === 'function') return probeStream(src, options);
  return probeHttp(src, options || {});
};

module.exports.sync = require('./sync');
module.exports.Error = require('./lib/common').ProbeError;
