/**
 * An output's type as its builders see it: the schema's input type, every
 * array and object read-only, so a builder may hand over the read-only
 * values it holds without copying them.
 */
export type Frozen<T> = T extends readonly (infer U)[] ? readonly Frozen<U>[]
  : T extends object ? { readonly [K in keyof T]: Frozen<T[K]> }
  : T;
