import { Exception } from './Exception.tsx';

/** The not-found screen (any unknown path, or no permitted route for the role). */
export default function NotFound() {
  return (
    <div style={{ minHeight: '100vh' }}>
      <Exception status="404" />
    </div>
  );
}
