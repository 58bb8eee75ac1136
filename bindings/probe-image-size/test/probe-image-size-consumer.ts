// A consumer of probe-image-size as rehype-probe-image-size and getStaticProps code import it,
// type-checked by bindings/js/check.sh (tsc --strict) against @imageprobe/probe-image-size
// installed as `probe-image-size`.
import probe from 'probe-image-size';

async function main(): Promise<void> {
  const result = await probe('https://example.com/photo.jpg', { timeout: 5000, headers: { 'User-Agent': 'site-builder' } });
  const width: number = result.width;
  const units: string = result.wUnits;
  const length: number | undefined = result.length;
  const variants = result.variants?.map((variant) => variant.width);
  const fromBytes = probe.sync(new Uint8Array(16));
  try {
    await probe('https://example.com/missing.jpg');
  } catch (error) {
    if (error instanceof probe.Error && error.statusCode === 404) void error.code;
  }
  void [width, units, length, variants, fromBytes?.mime];
}
void main;
