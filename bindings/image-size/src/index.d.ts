// Types of `image-size` (@imageprobe/image-size): image-size 2.x's API.
import type { ISizeCalculationResult } from './types/interface';
import type { imageType } from './types/index';

export type { ISize, ISizeCalculationResult } from './types/interface';
export type { imageType } from './types/index';

/** The size of an image in memory; throws a TypeError (image-size's message) for what it can't read. */
export declare function imageSize(input: Uint8Array): ISizeCalculationResult;
export default imageSize;

/** Makes imageSize() and imageSizeFromFile() throw `disabled file type: <type>` for these types. */
export declare function disableTypes(types: imageType[]): void;

/** image-size's list of types. */
export declare const types: imageType[];
