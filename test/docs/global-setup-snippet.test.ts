/**
 * The README's Dev server section gives a test run's global setup: a dev server for the whole run.
 * Run as each test runner runs it, the runner's main process must then exit by itself (issue 31: a
 * Jest that "did not exit one second after the test run has completed" is what a new user meets).
 * Jest calls the default export of its `globalSetup` module and ignores what it returns, then the
 * default export of its `globalTeardown` module, if the section names one (a `*global-teardown.ts`
 * snippet); Vitest calls the function the setup returns. Each way runs in a child process, whose
 * exit within a bound is the check.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { allSnippets, type Snippet } from './doc-snippets.js';
import { entryPoints, ROOT, SnippetProject } from './snippet-project.js';

const BUILT = path.join(ROOT, 'build/test/docs');
/** Far more than a dev server takes to start and stop; a process held open by one never gets there. */
const EXIT_WITHIN_MS = 20_000;

/** The README's snippets between `## Dev server` and the next `## ` heading. */
function devServerSnippets(): Snippet[] {
  const lines = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8').split('\n');
  const start = lines.indexOf('## Dev server') + 1;
  assert.ok(start > 0, 'README.md has no Dev server section');
  const end = lines.findIndex((line, index) => index >= start && line.startsWith('## '));
  return allSnippets(ROOT).filter((snippet) => snippet.doc === 'README.md' && snippet.line > start && snippet.line <= end);
}

let project: SnippetProject;
let out: string;
let setup: Snippet;
let teardown: Snippet | undefined;

/** Runs `steps` (module code) in a child process with the package resolved to this checkout's build; its exit status, output and whether it ended in time. */
function runChild(steps: string[]): { status: number | null; output: string } {
  const entryPointUrls = Object.fromEntries(
    entryPoints().map(({ specifier, distPath }) => [specifier, pathToFileURL(path.join(ROOT, 'build/src', `${distPath}.js`)).href]),
  );
  const main = path.join(out, `run-${Math.random().toString(36).slice(2)}.js`);
  fs.writeFileSync(main, [
    `import { register } from 'node:module';`,
    `register(${JSON.stringify(pathToFileURL(path.join(BUILT, 'snippet-resolve.js')).href)}, {`,
    `  data: { entryPoints: ${JSON.stringify(entryPointUrls)}, snippetsUrl: ${JSON.stringify(pathToFileURL(out).href + '/')} },`,
    `});`,
    ...steps,
    '',
  ].join('\n'));
  const { NODE_TEST_CONTEXT: _ours, ...env } = process.env;
  const run = spawnSync(process.execPath, [main], { cwd: out, env, encoding: 'utf8', timeout: EXIT_WITHIN_MS });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

const js = (snippet: Snippet) => `./${snippet.file.replace(/\.ts$/, '.js')}`;

describe("the Dev server section's global setup", { timeout: 120_000 }, () => {
  before(() => {
    const snippets = devServerSnippets();
    const found = snippets.find((snippet) => snippet.text.includes('DevServer.start'));
    assert.ok(found, 'the Dev server section has no snippet that starts a DevServer');
    setup = found;
    teardown = snippets.find((snippet) => /global-teardown\.ts$/.test(snippet.file));
    project = new SnippetProject('docs-global-setup-');
    out = path.join(project.dir, 'out');
    project.write(snippets, { outDir: out, rootDir: path.join(project.dir, 'snippets'), sourceMap: false });
    const compiled = project.compile();
    assert.equal(compiled.status, 0, `the Dev server snippets do not compile:\n${project.locate(compiled.output, snippets)}`);
    fs.writeFileSync(path.join(out, 'package.json'), JSON.stringify({ type: 'module' }));
  });

  after(() => project?.remove());

  it('lets the process exit after Jest ran it (setup, its return value ignored, then globalTeardown)', () => {
    const run = runChild([
      `await (await import(${JSON.stringify(js(setup))})).default();`,
      `if (!process.env.ZK_CONNECT) throw new Error('the setup set no ZK_CONNECT');`,
      ...(teardown ? [`await (await import(${JSON.stringify(js(teardown))})).default();`] : []),
      `console.log('teardown done');`,
    ]);
    assert.match(run.output, /teardown done/, run.output);
    assert.equal(run.status, 0, `Jest's main process would not exit: still running after ${EXIT_WITHIN_MS} ms (a dev server left open)\n${run.output}`);
  });

  it('lets the process exit after Vitest ran it (setup, then the function it returned)', () => {
    const run = runChild([
      `const stop = await (await import(${JSON.stringify(js(setup))})).default();`,
      `if (typeof stop !== 'function') throw new Error('the setup returned no teardown');`,
      `await stop();`,
      `console.log('teardown done');`,
    ]);
    assert.match(run.output, /teardown done/, run.output);
    assert.equal(run.status, 0, `Vitest would not exit: still running after ${EXIT_WITHIN_MS} ms\n${run.output}`);
  });
});
