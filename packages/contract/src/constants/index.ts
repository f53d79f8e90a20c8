/**
 * `@clearplay/contract/constants`: the contract's plain part — constants, their types and
 * small pure functions (status codes, roles, permissions, limits, MAC spelling, money
 * format). No TypeBox: the web app imports its values from here, so no schema builder
 * reaches the browser. `@clearplay/contract` re-exports all of it next to the schemas.
 */
export * from './status.ts';
export * from './roles.ts';
export * from './permissions.ts';
export * from './auth.ts';
export * from './users.ts';
export * from './dicts.ts';
export * from './orders.ts';
export * from './uploads.ts';
export * from './mac.ts';
export * from './sheets.ts';
export * from './money.ts';
export * from './workplace.ts';
export * from './public.ts';
export * from './messages.ts';
export * from './history.ts';
export * from './routes.ts';
export * from './view-as.ts';
export * from './tracking.ts';
export * from './text.ts';
export * from './endpoints/index.ts';
