/**
 * A worker thread whose code is a TypeScript module of the server's sources (type-checked and
 * linted like any other), started the same way from the sources and from the build.
 *
 * In the build (scripts/build-server.mjs) this code lives in dist/server.js, and each worker's
 * module is a bundle of its own beside it (`bundle`, e.g. `hash-worker.js`). From the sources
 * (`node --import tsx`, `tsx watch`, the tests) the module is the .ts file itself (`source`):
 * a worker's own `--import tsx` does not reach its entry on Node 20, so a few lines of
 * JavaScript register tsx's loader in the worker first and then import the module.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** True when this code runs from its TypeScript sources rather than the build. */
const fromSources = import.meta.url.endsWith('.ts');

/**
 * Starts the worker on `source` (a `new URL('./x.ts', import.meta.url)` of its caller) when
 * running from the sources, or on `bundle` (a file name beside dist/server.js) in the build.
 */
export function startModuleWorker(source: URL, bundle: string, options: WorkerOptions = {}): Worker {
  if (!fromSources) return new Worker(new URL(`./${bundle}`, import.meta.url), options);
  const tsxApi = new URL('dist/esm/api/index.mjs', pathToFileURL(createRequire(import.meta.url).resolve('tsx/package.json'))).href;
  const code = `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(source.href)}); });`;
  return new Worker(code, { ...options, eval: true, execArgv: [] });
}
