/**
 * Every TypeScript snippet of README.md and docs/*.md compiles against the package, imports
 * included: people paste them.
 *
 * The snippets (test/docs/doc-snippets.ts says how they are found, named and, rarely, wrapped)
 * are written into a scratch project inside build/ (test/docs/snippet-project.ts) and
 * type-checked with `tsc --noEmit` under the options of a Nest project (strict, decorators with
 * metadata). `nestjs-zk-lock` and its entry points resolve to declarations emitted from this
 * checkout's src/, as `npm run build` emits them; `@nestjs/*`, `rxjs` and `@types/node` resolve
 * from this repository's node_modules. What is not installed here (the test runner's globals,
 * prom-client, OpenTelemetry) has typed stand-ins: test/docs/stand-ins.ts.
 *
 * A failure names the document and line of each error, e.g.
 * `README.md:18:15: error TS2449: Class 'Billing' used before its declaration.`
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { allSnippets, type Snippet } from './doc-snippets.js';
import { ROOT, SnippetProject } from './snippet-project.js';

let project: SnippetProject;
let snippets: Snippet[];
let standInPackages: string[];

describe('the documentation snippets', { timeout: 600_000 }, () => {
  before(() => {
    project = new SnippetProject('docs-snippets-');
    snippets = allSnippets(ROOT);
    standInPackages = project.write(snippets, { noEmit: true });
  });

  after(() => project?.remove());

  it('finds the snippets of the README and of docs/', (t) => {
    const perDoc = new Map<string, number>();
    for (const snippet of snippets) perDoc.set(snippet.doc, (perDoc.get(snippet.doc) ?? 0) + 1);
    t.diagnostic(`${snippets.length} snippets: ${[...perDoc].map(([doc, count]) => `${doc} ${count}`).join(', ')}`);
    t.diagnostic(`stand-ins for: test-runner globals${standInPackages.map((pkg) => `, ${pkg}`).join('')}`);
    assert.ok((perDoc.get('README.md') ?? 0) >= 10, `only ${perDoc.get('README.md') ?? 0} snippets in README.md`);
  });

  it('compiles every snippet against the package, imports included', () => {
    const checked = project.compile();
    assert.equal(checked.status, 0, `snippets that do not compile:\n${project.locate(checked.output, snippets)}`);
  });
});
