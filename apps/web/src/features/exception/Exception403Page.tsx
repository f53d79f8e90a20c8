import { Exception } from '../../components/Exception.tsx';

/** Server-menu "exception" → the 403 page (PRODUCT.md), as the error boundary shows it. */
export default function Exception403Page() {
  return <Exception status="403" />;
}
