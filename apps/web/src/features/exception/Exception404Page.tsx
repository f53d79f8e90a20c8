import { Exception } from '../../components/Exception.tsx';

/** Server-menu "exception" → the 404 page (PRODUCT.md), as the error boundary shows it. */
export default function Exception404Page() {
  return <Exception status="404" />;
}
