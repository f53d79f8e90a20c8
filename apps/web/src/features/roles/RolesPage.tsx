import { ComingSoon } from '../../components/ComingSoon.tsx';

/** Role management (spec §2). Placeholder until the issue that builds this screen lands. */
export default function RolesPage() {
  return <ComingSoon description="page.role.description" />;
}
