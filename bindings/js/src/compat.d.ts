// Types of imageprobe/compat: image-size 2.x's API over imageprobe (the same calls as the
// @imageprobe/image-size package, which installs as `image-size`).

export interface ISize {
  width: number;
  height: number;
  orientation?: number;
  type?: string;
}

/** image-size's result: the size (an icon's largest entry; a HEIF's clean aperture), its type, and an icon's or a HEIF's entries. */
export type ISizeCalculationResult = {
  images?: ISize[];
} & ISize;

/** image-size's imageSize(input): synchronous; throws a TypeError with image-size's message ("Invalid PNG") for what it can't read. */
export declare function imageSize(input: Uint8Array | ArrayBuffer | ArrayBufferView): ISizeCalculationResult;
export default imageSize;

/** image-size's imageSizeFromFile(path) (Node): the file opened once and read as far as the answer needs. */
export declare function imageSizeFromFile(path: string): Promise<ISizeCalculationResult>;

/** image-size's setConcurrency(n): files imageSizeFromFile keeps open at once (default 100). */
export declare function setConcurrency(c: number): void;

/** image-size's disableTypes(types): those types then throw `disabled file type: <type>`. */
export declare function disableTypes(types: string[]): void;

/** image-size's list of types. */
export declare const types: string[];
