import { useEffect } from 'react';
import { useLocation } from 'react-router';

/** The address this document was loaded for (not where the app has navigated since). */
function loadedFor(): string {
  const entry = performance.getEntriesByType('navigation')[0];
  const url = new URL(entry?.name ?? window.location.href);
  return url.pathname + url.search;
}

/**
 * The public pages in the back office's router: they are their own light entry (public.html,
 * decision 0068), so a navigation to one inside the app (the API client's "go to /", a link)
 * loads that document. Not when this document was itself loaded for the address (a server or
 * dev server that sent index.html for it): that would reload forever.
 */
export default function PublicDocument() {
  const { pathname, search } = useLocation();
  const here = pathname + search;
  useEffect(() => {
    if (here !== loadedFor()) window.location.assign(here);
  }, [here]);
  return null;
}
