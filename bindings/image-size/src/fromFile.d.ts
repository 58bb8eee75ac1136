// Types of `image-size/fromFile` (@imageprobe/image-size).
import type { ISizeCalculationResult } from './types/interface';

/** The size of an image file: the file is opened once and read as far as the answer needs. */
export declare function imageSizeFromFile(filePath: string): Promise<ISizeCalculationResult>;

/** How many files imageSizeFromFile() keeps open at once (default 100). */
export declare function setConcurrency(c: number): void;
