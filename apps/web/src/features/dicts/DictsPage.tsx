import { ComingSoon } from '../../components/ComingSoon.tsx';

/** Dictionary management (spec §2). Placeholder until the issue that builds this screen lands. */
export default function DictsPage() {
  return <ComingSoon description="page.dict.description" />;
}
