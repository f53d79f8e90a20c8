import { ComingSoon } from '../../components/ComingSoon.tsx';

/** Workplace dashboard (spec §2). Placeholder until the issue that builds this screen lands. */
export default function WorkplacePage() {
  return <ComingSoon description="page.workplace.description" />;
}
