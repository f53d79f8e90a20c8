import { Type, type Static } from 'typebox';

export const HealthData = Type.Object({ db: Type.Union([Type.Literal('up'), Type.Literal('down')]) });
export type HealthData = Static<typeof HealthData>;
