import { useEffect } from 'react';
import { updateSettings } from '../../lib/settings.ts';

/** Spec §3 `device`: below antd's lg breakpoint (992 px) the layout is 'mobile'. */
export const MOBILE_QUERY = '(max-width: 991.98px)';

/** Keeps settings.device in step with the window while the layout is shown. */
export function useDevice(): void {
  useEffect(() => {
    const query = window.matchMedia(MOBILE_QUERY);
    const sync = () => updateSettings({ device: query.matches ? 'mobile' : 'desktop' });
    sync();
    query.addEventListener('change', sync);
    return () => query.removeEventListener('change', sync);
  }, []);
}
