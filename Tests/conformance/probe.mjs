// The JavaScript package's conformance driver: probeURL from the installed package (npm pack),
// one URL, one JSON line as the command's: {"format":...} or {"error":...,"fetchError":...}.
//   node probe.mjs URL MAX_BYTES TIMEOUT_SECONDS [ALLOW|-]     (ALLOW: public-only, with these blocks; "" none)
import { probeURL } from 'imageprobe';

const [url, maxBytes, timeout, allow] = process.argv.slice(2);
const options = { maxBytes: Number(maxBytes), timeout: Number(timeout) * 1000 };
if (allow !== undefined && allow !== '-') Object.assign(options, { publicOnly: true, allow: allow ? allow.split(',') : [] });
try {
  const info = await probeURL(url, options);
  console.log(JSON.stringify({ format: info.format, width: info.width, height: info.height,
    bytesTransferred: Number(info.bytesTransferred), requests: info.requests }));
} catch (error) {
  console.log(JSON.stringify({ error: error.code, fetchError: error.fetchError ?? null, message: error.message,
    bytesTransferred: Number(error.bytesTransferred ?? 0), requests: error.requests ?? 0 }));
}
