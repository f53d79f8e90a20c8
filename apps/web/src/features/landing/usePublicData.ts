import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

export type Loaded<T> = { state: 'loading' } | { state: 'done'; data: T } | { state: 'failed'; status: number | null; message: string };

const LOADING = { state: 'loading' } as const;

/**
 * One public call's answer, read again when `key` or the language changes (labels and
 * messages come in it; the previous answer stays on screen meanwhile unless `key` changed).
 * Plain state instead of TanStack Query: the public pages stay light.
 */
export function usePublicData<T>(load: () => Promise<T>, key = ''): Loaded<T> {
  const { i18n } = useTranslation();
  const [answer, setAnswer] = useState<{ key: string; value: Loaded<T> }>({ key, value: LOADING });
  useEffect(() => {
    let live = true;
    load().then(
      (data) => live && setAnswer({ key, value: { state: 'done', data } }),
      (error: unknown) => {
        const status = typeof (error as { status?: unknown }).status === 'number' ? (error as { status: number }).status : null;
        if (live) setAnswer({ key, value: { state: 'failed', status, message: error instanceof Error ? error.message : String(error) } });
      },
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` names what `load` reads
  }, [key, i18n.language]);
  return answer.key === key ? answer.value : LOADING;
}
