import { Exception } from '../../components/Exception.tsx';

/** Server-menu "exception" → the 404 page (docs/product.md "The back office"), as the error boundary shows it. */
export default function Exception404Page() {
  return <Exception status="404" />;
}
