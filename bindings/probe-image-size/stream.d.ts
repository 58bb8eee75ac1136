import probe = require('./index');
declare function probeStream(src: probe.StreamLike, keepOpen?: boolean): Promise<probe.ProbeResult>;
export = probeStream;
