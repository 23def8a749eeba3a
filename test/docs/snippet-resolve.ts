/**
 * Module resolution for the documentation's test snippets when test/docs/spec-snippets.test.ts
 * runs them: registered with `module.register` by the entry file it writes. Two things differ
 * from a user's project, and only these:
 * - `nestjs-zk-lock` and its entry points are this checkout's build (build/src), not an install;
 * - a relative import without an extension (`./reports/reports.service`, as a Nest 11 project
 *   writes them, and as Jest and Vitest resolve them) gets `.js`, within the snippets only.
 */
import type { InitializeHook, ResolveHook } from 'node:module';

interface SnippetResolveData {
  /** Specifier (`nestjs-zk-lock/testing`) to the file URL of its module in build/src. */
  entryPoints: Record<string, string>;
  /** The compiled snippets' directory, as a file URL ending in `/`. */
  snippetsUrl: string;
}

let data: SnippetResolveData;

export const initialize: InitializeHook<SnippetResolveData> = (given) => {
  data = given;
};

export const resolve: ResolveHook = (specifier, context, nextResolve) => {
  const entryPoint = data.entryPoints[specifier];
  if (entryPoint) return { url: entryPoint, shortCircuit: true };
  const relative = specifier.startsWith('./') || specifier.startsWith('../');
  if (relative && !/\.[cm]?js$/.test(specifier) && context.parentURL?.startsWith(data.snippetsUrl)) {
    return nextResolve(`${specifier}.js`, context);
  }
  return nextResolve(specifier, context);
};
