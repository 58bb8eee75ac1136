// A consumer of @imageprobe/markdown-it's entry, type-checked by bindings/js/check.sh
// (tsc --strict). markdown-it's own types are not installed there: `md` is declared with the
// shape a MarkdownIt has (@types/markdown-it's use() takes a plugin and its options).
import imageSize, { createImageSize } from '@imageprobe/markdown-it';
import type { ImageSizeEntry, ImageSizeOptions, ImageSizeStore, PrepareReport } from '@imageprobe/markdown-it';

interface Token { type: string; attrGet(name: string): string | null; children: Token[] | null }
declare const md: {
  renderer: { rules: { image?: (tokens: Token[], idx: number) => string } };
  parse(src: string, env: object): Token[];
  render(src: string): string;
  use<T>(plugin: (md: any, options?: T) => void, options?: T): unknown;
};

async function main(): Promise<void> {
  const options: ImageSizeOptions = { root: 'public', orientation: 'stored', maxBytes: 1 << 20, onWarning: (message, { src, error }) => void [message, src, error] };
  md.use(imageSize, options);

  const cache = new Map<string, ImageSizeEntry>();
  const store: ImageSizeStore = { get: (url) => cache.get(url), set: async (url, entry) => { cache.set(url, entry); } };
  const sizes = createImageSize({
    root: 'public',
    remote: { allow: ['https://images.example.com/', 'cdn.example.org'], publicOnly: true, concurrency: 4, probeOptions: { timeout: 5_000, maxRedirects: 0 } },
    store,
  });
  md.use(sizes.plugin);
  const report: PrepareReport = await sizes.prepare(['![a](https://images.example.com/a.png)'], { md, env: {} });
  const failed: string[] = report.failed.map(({ url }) => url);
  const entry = sizes.store.get('https://images.example.com/a.png');
  const width: number | null | undefined = entry?.displayWidth;
  const html: string = md.render('![a](https://images.example.com/a.png)');
  void [failed, width, html, report.allowed + report.notAllowed + report.fromStore + report.probed];
}
void main;
