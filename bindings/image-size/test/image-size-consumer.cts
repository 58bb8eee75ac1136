// The CommonJS consumer of image-size's entries (require()), type-checked by bindings/js/check.sh.
import sizeOf = require('image-size');
import fromFile = require('image-size/fromFile');

async function main(): Promise<void> {
  const size: { width: number; height: number } = sizeOf.imageSize(new Uint8Array(16));
  const viaDefault = sizeOf.default(new Uint8Array(16));
  const file = await fromFile.imageSizeFromFile('photo.jpg');
  void [size, viaDefault.type, file.images];
}
void main;
