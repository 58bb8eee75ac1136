// A consumer of image-size's entries as Docusaurus, Astro and markdown-it-image-size import
// them, type-checked by bindings/js/check.sh (tsc --strict) against @imageprobe/image-size
// installed as `image-size`.
import imageSize, { imageSize as named, disableTypes, types } from 'image-size';
import { imageSizeFromFile, setConcurrency } from 'image-size/fromFile';
import type { ISize, ISizeCalculationResult } from 'image-size/types/interface';
import type { imageType } from 'image-size/types/index';

async function main(): Promise<void> {
  const size: ISizeCalculationResult = imageSize(new Uint8Array(16));
  const same: ISizeCalculationResult = named(new Uint8Array(16));
  const fromFile: ISizeCalculationResult = await imageSizeFromFile('photo.jpg');
  const entries: ISize[] | undefined = fromFile.images;
  const width: number = size.width;
  const orientation: number | undefined = size.orientation;
  const type: string | undefined = same.type;
  const disabled: imageType[] = ['psd', 'tga'];
  disableTypes(disabled);
  setConcurrency(8);
  const names: imageType[] = types;
  void [entries, width, orientation, type, names];
}
void main;
