/**
 * The scratch project that the documentation's snippets are compiled in (test/docs/): a directory
 * inside build/ (so that `@nestjs/*`, `rxjs` and `@types/node` resolve from this repository's
 * node_modules), the package's declarations emitted from this checkout's src/ as `npm run build`
 * emits them, and a tsconfig whose `paths` send `nestjs-zk-lock` and each entry point of
 * package.json's `exports` to those declarations.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Snippet } from './doc-snippets.js';
import { standIns } from './stand-ins.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
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
  types: ['node'],
};

export function tsc(args: readonly string[]): { status: number; output: string } {
  try {
    return { status: 0, output: execFileSync(process.execPath, [TSC, ...args], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 300_000 }) };
  } catch (error) {
    const { status, stdout, stderr } = error as { status?: number; stdout?: string; stderr?: string };
    return { status: status ?? 1, output: `${stdout ?? ''}${stderr ?? ''}` };
  }
}

/** package.json's `exports`: each entry point (`nestjs-zk-lock/testing`) and its path in dist/ without the extension (`testing/index`). */
export function entryPoints(): Array<{ specifier: string; distPath: string }> {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    name: string;
    exports: Record<string, { default?: { types?: string } }>;
  };
  return Object.entries(pkg.exports).flatMap(([entry, conditions]) => {
    const types = conditions.default?.types;
    if (!types) return []; // ./package.json
    assert.match(types, /^\.\/dist\/.*\.d\.ts$/, `${entry}: types outside dist/`);
    return [{ specifier: `${pkg.name}${entry.slice(1)}`, distPath: types.slice('./dist/'.length, -'.d.ts'.length) }];
  });
}

export class SnippetProject {
  readonly dir: string;

  /** Makes the scratch directory and emits the package's declarations into it. */
  constructor(prefix: string) {
    fs.mkdirSync(path.join(ROOT, 'build'), { recursive: true });
    this.dir = fs.mkdtempSync(path.join(ROOT, 'build', prefix));
    const emitted = tsc(['-p', 'tsconfig.build.json', '--emitDeclarationOnly', '--outDir', path.join(this.dir, 'package')]);
    assert.equal(emitted.status, 0, `emitting the package's declarations failed:\n${emitted.output}`);
  }

  /** Where a snippet goes. */
  fileOf(snippet: Snippet): string {
    return path.join(this.dir, 'snippets', snippet.file);
  }

  /**
   * Writes the snippets, the stand-ins and a tsconfig with `extra` compiler options; returns the
   * packages that got a stand-in.
   */
  write(snippets: readonly Snippet[], extra: Record<string, unknown>): string[] {
    for (const snippet of snippets) {
      fs.mkdirSync(path.dirname(this.fileOf(snippet)), { recursive: true });
      fs.writeFileSync(this.fileOf(snippet), snippet.text);
    }
    const stand = standIns((pkg) => fs.existsSync(path.join(ROOT, 'node_modules', pkg, 'package.json')));
    fs.writeFileSync(path.join(this.dir, 'stand-ins.d.ts'), stand.text);
    const paths = Object.fromEntries(entryPoints().map(({ specifier, distPath }) => [specifier, [path.join(this.dir, 'package', `${distPath}.d.ts`)]]));
    const files = ['stand-ins.d.ts', ...snippets.map((snippet) => path.relative(this.dir, this.fileOf(snippet)))];
    const compilerOptions = { ...COMPILER_OPTIONS, paths, ...extra };
    fs.writeFileSync(path.join(this.dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files }, null, 2));
    return stand.packages;
  }

  compile(): { status: number; output: string } {
    return tsc(['-p', path.join(this.dir, 'tsconfig.json')]);
  }

  /** tsc's `file(line,col): error ...` lines, with the file and line turned into the document's. */
  locate(output: string, snippets: readonly Snippet[]): string {
    const byFile = new Map(snippets.map((snippet) => [this.fileOf(snippet), snippet]));
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

  remove(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
