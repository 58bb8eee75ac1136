// `image-size` (Node, import): imageSize, disableTypes, types, and imageSize as the default export.
export { imageSize, imageSize as default, disableTypes, types } from './image-size.mjs';
