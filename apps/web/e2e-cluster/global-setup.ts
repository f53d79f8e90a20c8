// Starts the two-instance stack once for the cluster journeys (stack.ts) and stops it after
// them: the database dropped, the processes ended, the temporary folder removed. The journeys
// read where everything is from CLUSTER (JSON) and trust nginx's certificate through
// NODE_EXTRA_CA_CERTS; both are set here, before the workers start.
import { startStack } from './stack.ts';

export default async function globalSetup(): Promise<() => Promise<void>> {
  const stack = await startStack((line) => console.log(`cluster: ${line}`));
  process.env.CLUSTER = JSON.stringify(stack.info);
  process.env.NODE_EXTRA_CA_CERTS = stack.info.cert;
  console.log(`cluster: nginx at ${stack.info.url}, instances ${stack.info.instances.map((i) => i.url).join(' and ')}`);
  return async () => {
    await stack.stop();
  };
}
