/**
 * Every endpoint of the API, declared once (decision 0096). Grouped by module noun; the web
 * imports the group it calls (e.g. `dictEndpoints`), so a screen's chunk carries only its own
 * declarations. `endpoints` gathers every group for the server's checks and the OpenAPI
 * document; `endpointList` flattens it with each declaration's name (`dicts.typeList`).
 */
import { dictEndpoints } from './dicts.ts';
import type { Endpoint } from './endpoint.ts';

export * from './endpoint.ts';
export { dictEndpoints } from './dicts.ts';
export { UNDECLARED_ROUTES } from './undeclared.ts';

export const endpoints = {
  dicts: dictEndpoints,
} satisfies Record<string, Record<string, Endpoint>>;

/** Every declaration with its name, `group.call`. */
export const endpointList = (): { name: string; endpoint: Endpoint }[] =>
  Object.entries(endpoints).flatMap(([group, calls]) =>
    Object.entries(calls).map(([call, declared]) => ({ name: `${group}.${call}`, endpoint: declared as Endpoint })),
  );
