/**
 * `@clearplay/contract`: the TypeBox schemas of every call and the types inferred from them,
 * plus (re-exported) the plain part of ./constants/ (also its own entry,
 * `@clearplay/contract/constants`, which has no TypeBox).
 */
export * from './constants/index.ts';
export * from './schemas.ts';
