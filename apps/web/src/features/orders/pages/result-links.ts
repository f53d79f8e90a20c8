import type { ServerFieldError } from '../../../components/FormModal.tsx';

/**
 * Links to the result pages (server menu "result"; decision 0064). What the page
 * shows is in the query, so it survives a reload and can be linked: after the form page's
 * submit `from=form` with the order's id and code; after an import `from=import` with the
 * counts. The failure page's reason comes as router state (the server's message).
 */
export type ResultQuery =
  { from: 'form'; id?: number; code?: string } | { from: 'import'; total: number; imported: number; rejected: number };

export interface FailState {
  message: string;
  errors: ServerFieldError[];
}

export function resultPath(kind: 'success' | 'fail', query: ResultQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  return `/result/${kind}?${params.toString()}`;
}

/** The query of a result page, read back (anything unreadable is left out). */
export function readResultQuery(search: URLSearchParams): ResultQuery {
  const count = (name: string) => {
    const n = Number(search.get(name));
    return Number.isInteger(n) && n >= 0 ? n : 0;
  };
  if (search.get('from') === 'import')
    return { from: 'import', total: count('total'), imported: count('imported'), rejected: count('rejected') };
  const id = Number(search.get('id'));
  const code = search.get('code');
  return {
    from: 'form',
    ...(Number.isInteger(id) && id > 0 ? { id } : {}),
    ...(code && /^[A-Za-z0-9-]{1,32}$/.test(code) ? { code } : {}),
  };
}
