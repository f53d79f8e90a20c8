// Vitest's global setup for the server suites: one database migrated and seeded for the whole
// run, which every test context copies (test/context.ts, decision 0122), dropped at the end.
import type { TestProject } from 'vitest/node';
import { createTestTemplate, type TestTemplate } from './context.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    testTemplate: Pick<TestTemplate, 'kind' | 'ref'> | undefined;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const template = await createTestTemplate();
  project.provide('testTemplate', { kind: template.kind, ref: template.ref });
  return () => template.drop();
}
