// image-size 2.x's result types (`image-size/types/interface`).

export interface ISize {
  width: number;
  height: number;
  orientation?: number;
  type?: string;
}

/** The size (an icon's largest entry; a HEIF's clean aperture), its type, and the entries of an icon or HEIF. */
export type ISizeCalculationResult = {
  images?: ISize[];
} & ISize;

export interface IImage {
  validate: (input: Uint8Array) => boolean;
  calculate: (input: Uint8Array) => ISizeCalculationResult;
}
