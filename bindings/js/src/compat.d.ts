// Types of imageprobe/compat: image-size 2.x's API over imageprobe.

export interface ISize {
  width: number;
  height: number;
  orientation?: number;
  type?: string;
}

/** image-size's result: the size (the largest entry of an icon), its type, and an icon's entries. */
export type ISizeCalculationResult = {
  images?: ISize[];
} & ISize;

/** image-size's imageSize(input): synchronous; throws a TypeError for what it can't read. */
export declare function imageSize(input: Uint8Array | ArrayBuffer | ArrayBufferView): ISizeCalculationResult;
export default imageSize;

/** image-size's imageSizeFromFile(path) (Node). */
export declare function imageSizeFromFile(path: string): Promise<ISizeCalculationResult>;

/** image-size's disableTypes(types). */
export declare function disableTypes(types: string[]): void;

/** The type names imageSize() returns. */
export declare const types: string[];
