// A consumer of every export, type-checked by check.sh with `tsc --strict` against the installed
// package (lib es2022 + dom, and lib es2022 alone: the types need neither DOM nor @types/node).
import {
  init, probe, probeSync, probeStream, probeURL, probeFile, probeFileSync, Scanner, ImageProbeError,
  type ImageInfo, type URLImageInfo, type ScanResult, type ScanOptions, type Count, type ErrorCode, type CICP,
} from 'imageprobe';
import * as web from 'imageprobe/web';
import imageSizeDefault, { imageSize, imageSizeFromFile, setConcurrency, disableTypes, types, type ISizeCalculationResult } from 'imageprobe/compat';

declare const bytes: Uint8Array;
declare const stream: AsyncIterable<Uint8Array>;
declare const module: Exclude<Parameters<typeof init>[0], undefined | string>;

async function main(): Promise<void> {
  await init();
  await init(module);
  await web.init('https://example.com/imageprobe-web.wasm');
  const options: ScanOptions = { mode: 'dimensionsOnly', maxBytes: 1n << 20n, maxWidth: 10000, maxPixels: 1n << 40n };
  const info: ImageInfo = await probe(bytes, options);
  const width: number = info.width;
  const orientation: number | null = info.orientation;
  const alpha: boolean | null = info.alpha;
  const read: Count = info.bytesRead;
  const hdr: boolean | null = info.hdr;
  const gainMap: boolean | null = info.gainMap;
  const icc: boolean | null = info.iccProfile;
  const interlaced: boolean | null = info.interlaced;
  const motion: boolean | null = info.motionPhoto;
  const cicp: CICP | null = info.cicp;
  const fullRange: boolean | undefined = cicp?.[3];
  const dpi: [number, number] | null = info.dpi;
  const dpiX: number | undefined = info.dpi?.[0];
  const limited: ImageInfo = await probe(bytes, { maxPixels: 1_000_000 });
  const again: ImageInfo = probeSync(bytes.buffer);
  const streamed: ImageInfo = await probeStream(stream, { mode: 'animation' });
  const remote: URLImageInfo = await probeURL('https://example.com/a.jpg', {
    timeout: 5000, maxBytes: 1 << 20, maxRequests: 8, maxRedirects: 2, redirect: 'follow',
  });
  const transferred: Count = remote.bytesTransferred;
  const requests: number = remote.requests;
  const file: ImageInfo = await probeFile('photo.jpg');
  const fileNow: ImageInfo = probeFileSync('photo.jpg');
  const scanner = await Scanner.create();
  const direct = new Scanner({ mode: 'full' });
  const result: ScanResult = scanner.feed(bytes);
  if (result.status === 'needMore') { const needed: Count = result.needed; void needed; }
  else if (result.status === 'done') { const format: string = result.info.format; void format; }
  else { const code: ErrorCode = result.error.code; void code; }
  const pending: Count = scanner.pendingSkip;
  const passed: Count = scanner.skip(typeof pending === 'bigint' ? pending : BigInt(pending));
  const finished: ScanResult = scanner.finish();
  scanner.dispose();
  direct[Symbol.dispose]();
  try { await probe(bytes); } catch (error) {
    if (error instanceof ImageProbeError) {
      const code: ErrorCode = error.code;
      const detected: string | null = error.detectedFormat;
      if (code === 'tooManyPixels') {
        const refused: [string | undefined, number | undefined, number | undefined, number | null | undefined] =
          [error.format, error.width, error.height, error.frameCount];
        void refused;
      }
      void code; void detected;
    }
  }
  const size: ISizeCalculationResult = imageSize(bytes);
  const same: ISizeCalculationResult = imageSizeDefault(bytes);
  const fromFile: ISizeCalculationResult = await imageSizeFromFile('photo.jpg');
  disableTypes(['psd']);
  setConcurrency(8);
  const names: string[] = types;
  const webInfo: ImageInfo = await web.probe(bytes);
  void [hdr, gainMap, icc, interlaced, motion, fullRange, dpi, dpiX, limited];
  void [width, orientation, alpha, read, again, streamed, transferred, requests, file, passed, finished, size, same, fromFile, names, webInfo];
}
void main;
