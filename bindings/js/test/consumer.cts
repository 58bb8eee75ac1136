// The CommonJS consumer: require('imageprobe') and require('imageprobe/compat') are typed.
import imageprobe = require('imageprobe');
import compat = require('imageprobe/compat');

async function main(): Promise<void> {
  const info: imageprobe.ImageInfo = await imageprobe.probeFile('photo.jpg');
  const scanner: imageprobe.Scanner = new imageprobe.Scanner();
  const size: compat.ISizeCalculationResult = compat.imageSize(new Uint8Array(16));
  void [info, scanner, size];
}
void main;
