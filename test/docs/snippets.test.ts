/**
 * Every TypeScript snippet of README.md and docs/*.md compiles against the package, imports
 * included: people paste them.
 *
 * The snippets (test/docs/doc-snippets.ts says how they are found, named and, rarely, wrapped)
 * are written into a scratch project inside build/, one directory for all, and type-checked
 * with `tsc --noEmit` under the options of a Nest project (strict, decorators with metadata).
 * `nestjs-zk-lock` and its entry points resolve, through tsconfig `paths` made from
 * package.json's `exports`, to declarations that `tsc -p tsconfig.build.json` emits from this
 * checkout's src/, as `npm run build` does for the package; `@nestjs/*`, `rxjs` and
 * `@types/node` resolve from this repository's node_modules. What is not installed here (the
 * test runner's globals, prom-client, OpenTelemetry) has typed stand-ins: test/docs/stand-ins.ts.
 *
 * A failure names the document and line of each error, e.g.
 * `README.md:212:5: error TS2304: Cannot find name 'Ledger'.`
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { allSnippets, type Snippet } from './doc-snippets.js';
import { standIns } from './stand-ins.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');

/** What a Nest project's tsconfig has; bundler resolution accepts relative imports with or without `.js`. */
const COMPILER_OPTIONS = {
  target: 'ES2022',
  lib: ['ES2022'],
  module: 'ESNext',
  moduleResolution: 'Bundler',
  strict: true,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  skipLibCheck: true,
  noEmit: true,
  types: ['node'],
};

let scratch: string;
let snippets: Snippet[];
let standInPackages: string[];

/** Where a snippet goes in the scratch project. */
const fileOf = (snippet: Snippet) => path.join(scratch, 'snippets', snippet.file);

function tsc(args: readonly string[]): { status: number; output: string } {
  try {
    return { status: 0, output: execFileSync(process.execPath, [TSC, ...args], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 300_000 }) };
  } catch (error) {
    const { status, stdout, stderr } = error as { status?: number; stdout?: string; stderr?: string };
    return { status: status ?? 1, output: `${stdout ?? ''}${stderr ?? ''}` };
  }
}

/** tsconfig `paths` for every entry point of package.json's `exports`, to the emitted declarations. */
function packagePaths(declarations: string): Record<string, string[]> {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    name: string;
    exports: Record<string, { default?: { types?: string } }>;
  };
  const paths: Record<string, string[]> = {};
  for (const [entry, conditions] of Object.entries(pkg.exports)) {
    const types = conditions.default?.types;
    if (!types) continue; // ./package.json
    assert.match(types, /^\.\/dist\//, `${entry}: types outside dist/`);
    paths[`${pkg.name}${entry.slice(1)}`] = [path.join(declarations, types.slice('./dist/'.length))];
  }
  return paths;
}

/** `file(line,col): error ...` of tsc, with the file and line turned into the document's. */
function locate(output: string): string {
  const byFile = new Map(snippets.map((snippet) => [fileOf(snippet), snippet]));
  return output
    .split('\n')
    .map((line) => {
      const match = /^(.+?)\((\d+),(\d+)\): (.*)$/.exec(line);
      const snippet = match && byFile.get(path.resolve(ROOT, match[1]!));
      if (!match || !snippet) return line;
      return `${snippet.doc}:${snippet.line + Number(match[2]) - 1 - snippet.prefix}:${match[3]}: ${match[4]} [${snippet.file}]`;
    })
    .join('\n');
}

describe('the documentation snippets', { timeout: 600_000 }, () => {
  before(() => {
    fs.mkdirSync(path.join(ROOT, 'build'), { recursive: true });
    scratch = fs.mkdtempSync(path.join(ROOT, 'build', 'docs-snippets-'));
    const declarations = path.join(scratch, 'package');
    const emitted = tsc(['-p', 'tsconfig.build.json', '--emitDeclarationOnly', '--outDir', declarations]);
    assert.equal(emitted.status, 0, `emitting the package's declarations failed:\n${emitted.output}`);

    snippets = allSnippets(ROOT);
    for (const snippet of snippets) {
      const file = fileOf(snippet);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, snippet.text);
    }
    const stand = standIns((pkg) => fs.existsSync(path.join(ROOT, 'node_modules', pkg, 'package.json')));
    standInPackages = stand.packages;
    fs.writeFileSync(path.join(scratch, 'stand-ins.d.ts'), stand.text);
    const files = ['stand-ins.d.ts', ...snippets.map((snippet) => path.relative(scratch, fileOf(snippet)))];
    const compilerOptions = { ...COMPILER_OPTIONS, paths: packagePaths(declarations) };
    fs.writeFileSync(path.join(scratch, 'tsconfig.json'), JSON.stringify({ compilerOptions, files }, null, 2));
  });

  after(() => {
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('finds the snippets of the README and of docs/', (t) => {
    const perDoc = new Map<string, number>();
    for (const snippet of snippets) perDoc.set(snippet.doc, (perDoc.get(snippet.doc) ?? 0) + 1);
    t.diagnostic(`${snippets.length} snippets: ${[...perDoc].map(([doc, count]) => `${doc} ${count}`).join(', ')}`);
    t.diagnostic(`stand-ins for: test-runner globals${standInPackages.map((pkg) => `, ${pkg}`).join('')}`);
    assert.ok((perDoc.get('README.md') ?? 0) >= 10, `only ${perDoc.get('README.md') ?? 0} snippets in README.md`);
  });

  it('compiles every snippet against the package, imports included', () => {
    const checked = tsc(['-p', path.join(scratch, 'tsconfig.json')]);
    assert.equal(checked.status, 0, `snippets that do not compile:\n${locate(checked.output)}`);
  });
});
