import { Exception } from '../../components/Exception.tsx';

/** Server-menu "exception" → the 500 page (docs/product.md "The back office"), as the error boundary shows it. */
export default function Exception500Page() {
  return <Exception status="500" />;
}
