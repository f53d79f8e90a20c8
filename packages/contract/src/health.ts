import { Type, type Static } from 'typebox';

/** GET /api/health: the process is alive (no database call). */
export const HealthData = Type.Object({ uptimeSeconds: Type.Number({ minimum: 0 }) });
export type HealthData = Static<typeof HealthData>;

/** GET /api/ready: the database answers and every migration has run (503 otherwise). */
export const ReadyData = Type.Object({
  db: Type.Union([Type.Literal('up'), Type.Literal('down')]),
  migrations: Type.Union([Type.Literal('done'), Type.Literal('pending'), Type.Literal('unknown')]),
});
export type ReadyData = Static<typeof ReadyData>;
