// The CommonJS consumer of probe-image-size and its sub-paths, type-checked by bindings/js/check.sh.
import probe = require('probe-image-size');
import probeSync = require('probe-image-size/sync');
import probeStream = require('probe-image-size/stream');
import probeHttp = require('probe-image-size/http');

async function main(stream: probe.StreamLike): Promise<void> {
  const fromStream: probe.ProbeResult = await probe(stream, true);
  const again: probe.ProbeResult = await probeStream(stream);
  const fromUrl: probe.ProbeResult = await probeHttp('https://example.com/a.png', { follow_max: 2 });
  const fromBytes: probe.ProbeResult | null = probeSync([0x89, 0x50]);
  const error: probe.Error = new probe.Error('unrecognized file format', 'ECONTENT');
  void [fromStream, again, fromUrl, fromBytes, error.code];
}
void main;
