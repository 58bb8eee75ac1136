// `image-size/types/interface`: types only (interface.d.ts).
export {};
