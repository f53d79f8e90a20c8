import { Exception } from '../../components/Exception.tsx';

/** Server-menu "exception" → the 403 page (docs/product.md "The back office"), as the error boundary shows it. */
export default function Exception403Page() {
  return <Exception status="403" />;
}
