import probe = require('./index');
declare function probeHttp(src: string, options?: probe.ProbeOptions): Promise<probe.ProbeResult>;
export = probeHttp;
