import { ComingSoon } from '../../components/ComingSoon.tsx';

/** User management (spec §2). Placeholder until the issue that builds this screen lands. */
export default function UsersPage() {
  return <ComingSoon description="page.user.description" />;
}
