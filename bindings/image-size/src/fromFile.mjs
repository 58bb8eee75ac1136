// `image-size/fromFile` (Node, import): imageSizeFromFile and setConcurrency.
export { imageSizeFromFile, setConcurrency } from './image-size.mjs';
