import { ComingSoon } from '../../components/ComingSoon.tsx';

/** Order inspect: detection records (spec §2). Placeholder until the issue that builds this screen lands. */
export default function InspectPage() {
  return <ComingSoon description="page.inspect.description" />;
}
