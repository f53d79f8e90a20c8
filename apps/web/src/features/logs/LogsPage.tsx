import { ComingSoon } from '../../components/ComingSoon.tsx';

/** Operation log (spec §2). Placeholder until the issue that builds this screen lands. */
export default function LogsPage() {
  return <ComingSoon description="page.log.description" />;
}
