import type { Plugin } from 'vite';

/**
 * The browser reads two fields of an endpoint declaration: its method and path (`api.call`
 * fills the path and sends the method; everything else the web takes from the declaration is
 * a type). In the production build each `endpoint({ … })` of the contract's declaration files
 * (packages/contract/src/constants/endpoints/) becomes a plain object of those two (`endpoint()`
 * only types it, and returns its argument as it is); who may call it, its
 * operation-log rule, its OpenAPI summary and tag and its schemas stay on the server, which
 * imports the files as they are (decision 0098). The files are prettier-formatted: a
 * declaration's properties sit 4 spaces in, their continuations deeper.
 *
 * The build fails when a declaration file no longer reads that way (a declaration without a
 * method or path left), so a reformatted file cannot ship declarations the client cannot call.
 */
const DECLARATIONS = /[\\/]packages[\\/]contract[\\/]src[\\/]constants[\\/]endpoints[\\/](?!endpoint\.ts|index\.ts)[^\\/]+\.ts$/;

/** A declaration file with every `endpoint({ … })` reduced to its method and path. */
export function trimDeclarations(code: string, id: string): string {
  const lines = code.split('\n');
  const out: string[] = [];
  let inside = false;
  let keep = false;
  let kept = 0;
  for (const line of lines) {
    if (!inside) {
      // `endpoint()` only types a declaration: the plain object is what it returns.
      if (line === "import { endpoint } from './endpoint.ts';") continue;
      const opening = /^(\s*\w+: )endpoint\(\{$/.exec(line);
      out.push(opening ? `${opening[1]}({` : line);
      if (opening) {
        inside = true;
        kept = 0;
      }
      continue;
    }
    if (/^ {2}\}\),$/.test(line)) {
      if (kept !== 2) throw new Error(`${id}: a declaration without its method and path (endpoints-trim.ts)`);
      out.push(line);
      inside = false;
      continue;
    }
    const property = /^ {4}(\w+)[:,]/.exec(line);
    if (property) keep = property[1] === 'method' || property[1] === 'path';
    else if (!/^ {5,}\S/.test(line) && !/^ {4}\/\//.test(line)) throw new Error(`${id}: unexpected line in a declaration: ${line}`);
    if (keep && !/^ {4}\/\//.test(line)) {
      out.push(line);
      if (property) kept += 1;
    }
  }
  if (inside) throw new Error(`${id}: a declaration left open (endpoints-trim.ts)`);
  return out.join('\n');
}

export function endpointsTrim(): Plugin {
  return {
    name: 'clearplay:endpoints-trim',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (!DECLARATIONS.test(id)) return null;
      return { code: trimDeclarations(code, id), map: null };
    },
  };
}
