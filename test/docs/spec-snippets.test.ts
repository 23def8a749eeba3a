/**
 * The tests among the documentation's snippets pass: the unit and e2e tests of Getting started,
 * and the testing guide's, run against this checkout's build as a reader would run them in a
 * `nest new` project.
 *
 * The named snippets (`<!-- snippet: file ... -->`, test/docs/doc-snippets.ts) are compiled
 * together into a scratch project (test/docs/snippet-project.ts), then the test files among them
 * (`*.spec.ts`, `*.e2e-spec.ts`) run in one child process: test/docs/test-globals.ts gives them
 * Jest's globals on Node's test runner, and test/docs/snippet-resolve.ts resolves
 * `nestjs-zk-lock` to build/src and their extensionless relative imports. Everything else is
 * real: Nest, @nestjs/schedule, an HTTP server on a loopback port for the e2e test, and the
 * library on its testing module's simulated ZooKeeper (no server).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { allSnippets, type Snippet } from './doc-snippets.js';
import { entryPoints, ROOT, SnippetProject } from './snippet-project.js';

const IS_TEST = /\.(e2e-)?spec\.ts$/;
const BUILT = path.join(ROOT, 'build/test/docs');

let project: SnippetProject;
let named: Snippet[];

describe('the documentation test snippets', { timeout: 600_000 }, () => {
  before(() => {
    project = new SnippetProject('docs-specs-');
    named = allSnippets(ROOT).filter((snippet) => snippet.named);
    project.write(named, { outDir: path.join(project.dir, 'out'), rootDir: path.join(project.dir, 'snippets'), sourceMap: false });
  });

  after(() => project?.remove());

  it('run and pass against the library', (t) => {
    const specs = named.filter((snippet) => IS_TEST.test(snippet.file));
    assert.ok(specs.length >= 2, `only ${specs.length} test snippets: ${specs.map((s) => s.file).join(', ')}`);
    const compiled = project.compile();
    assert.equal(compiled.status, 0, `the named snippets do not compile:\n${project.locate(compiled.output, named)}`);

    const out = path.join(project.dir, 'out');
    fs.writeFileSync(path.join(out, 'package.json'), JSON.stringify({ type: 'module' }));
    const entryPointUrls = Object.fromEntries(
      entryPoints().map(({ specifier, distPath }) => [specifier, pathToFileURL(path.join(ROOT, 'build/src', `${distPath}.js`)).href]),
    );
    const main = path.join(out, 'run-specs.js');
    fs.writeFileSync(
      main,
      [
        `import { register } from 'node:module';`,
        `register(${JSON.stringify(pathToFileURL(path.join(BUILT, 'snippet-resolve.js')).href)}, {`,
        `  data: { entryPoints: ${JSON.stringify(entryPointUrls)}, snippetsUrl: ${JSON.stringify(pathToFileURL(out).href + '/')} },`,
        `});`,
        `await import(${JSON.stringify(pathToFileURL(path.join(BUILT, 'test-globals.js')).href)});`,
        ...specs.map((snippet) => `await import('./${snippet.file.replace(/\.ts$/, '.js')}');`),
        '',
      ].join('\n'),
    );
    // Without NODE_TEST_CONTEXT, which `node --test` sets for its own children: the child reports
    // as a process of its own (TAP on stdout), not to this test runner.
    const { NODE_TEST_CONTEXT: _ours, ...env } = process.env;
    const run = spawnSync(process.execPath, ['--test-reporter=tap', main], { cwd: out, env, encoding: 'utf8', timeout: 300_000 });
    const output = `${run.stdout}${run.stderr}`;
    const summary = output.split('\n').filter((line) => /^# (tests|pass|fail)/.test(line));
    t.diagnostic(`${specs.map((snippet) => `${snippet.doc}: ${snippet.file}`).join(', ')}; ${summary.join(', ')}`);
    assert.equal(run.status, 0, `the documentation's tests failed (exit ${run.status}, signal ${run.signal}):\n${output}`);
    assert.match(output, /^# fail 0$/m);
  });
});
