/**
 * Every TypeBox schema of the contract and the types inferred from them (no constants): what an
 * endpoint declaration's `schemas` function picks its schemas from (constants/endpoints/).
 */
export * from './envelope.ts';
export * from './auth.ts';
export * from './health.ts';
export * from './dict.ts';
export * from './common.ts';
export * from './users.ts';
export * from './role-admin.ts';
export * from './dict-admin.ts';
export * from './logs.ts';
export * from './uploads.ts';
export * from './tracking.ts';
export * from './orders.ts';
export * from './announcements.ts';
export * from './workplace.ts';
export * from './visit-stats.ts';
export * from './public.ts';
export * from './messages.ts';
export * from './account.ts';
export * from './orders-history.ts';
export * from './menu.ts';
export * from './orders-profile.ts';
export * from './view-as.ts';
