// `image-size/types/index`: image-size's list of types.
export { types } from '../image-size.mjs';
