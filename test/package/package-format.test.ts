/**
 * The published package as projects load it. `npm pack` makes the tarball (its `prepack` builds
 * dist/), which is unpacked into the node_modules of a scratch project inside build/, so that its
 * peers (@nestjs/*, rxjs) resolve from this repository's node_modules as they would from the
 * project's own. Then:
 * - ES `import` and CommonJS `require` of every entry point give the very same classes (Nest
 *   resolves providers by class identity: two copies would break injection);
 * - a consumer (test/package/consumer/) type-checks under `moduleResolution` `node16`, `nodenext`
 *   and `bundler`, from a CommonJS and from an ES module project (`node`, which ignores `exports`, is
 *   gone from TypeScript 7: the `nest new` fixture of `scripts/ci-fixtures.sh` checks it with the
 *   TypeScript 5 that such projects have);
 * - compiled both ways, it runs a unit test on `nestjs-zk-lock/testing` in a process where the
 *   `zookeeper` package cannot be found, and a real session then fails with
 *   `NativeClientMissingError`.
 * Jest, Vitest and `nest new` projects are covered by the fixtures of `scripts/ci-fixtures.sh`.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const CONSUMER = path.join(ROOT, 'test/package/consumer');
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');

/** What a Nest project's tsconfig has in common, whatever its module system. */
const NEST_OPTIONS = { target: 'ES2022', strict: true, experimentalDecorators: true, emitDecoratorMetadata: true, skipLibCheck: false, types: ['node'] };

let scratch: string;

function run(command: string, args: readonly string[], cwd: string): string {
  try {
    return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 180_000 });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    assert.fail(`${command} ${args.join(' ')} in ${cwd} failed:\n${stdout ?? ''}${stderr ?? ''}`);
  }
}

/** A project folder of the scratch dir: its package.json type, the consumer, a tsconfig. */
function project(name: string, type: 'commonjs' | 'module', compilerOptions: Record<string, unknown>): string {
  const dir = path.join(scratch, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, private: true, type }));
  fs.copyFileSync(path.join(CONSUMER, 'consumer.ts.txt'), path.join(dir, 'consumer.ts'));
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { ...NEST_OPTIONS, ...compilerOptions }, files: ['consumer.ts'] }));
  return dir;
}

function runWithoutNativeClient(script: string, cwd: string): { runs: string[]; elections: string[]; health: string; connected: string; native: string } {
  const output = run(process.execPath, ['--require', path.join(CONSUMER, 'hide-zookeeper.cjs'), script], cwd);
  return JSON.parse(output.trim().split('\n').pop()!) as { runs: string[]; elections: string[]; health: string; connected: string; native: string };
}

describe('the packed package', { timeout: 600_000 }, () => {
  before(() => {
    fs.mkdirSync(path.join(ROOT, 'build'), { recursive: true });
    scratch = fs.mkdtempSync(path.join(ROOT, 'build', 'package-'));
    const tarball = run('npm', ['pack', '--silent', '--pack-destination', scratch], ROOT).trim().split('\n').pop()!;
    const installed = path.join(scratch, 'node_modules', 'nestjs-zk-lock');
    fs.mkdirSync(installed, { recursive: true });
    run('tar', ['-xzf', path.join(scratch, tarball), '-C', installed, '--strip-components=1'], scratch);
  });

  after(() => {
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('gives import and require the same classes, every export of every entry point', () => {
    const probe = path.join(scratch, 'same-classes.mjs');
    fs.writeFileSync(
      probe,
      `import { createRequire } from 'node:module';
       const require = createRequire(import.meta.url);
       const report = {};
       for (const entry of ['nestjs-zk-lock', 'nestjs-zk-lock/testing', 'nestjs-zk-lock/health', 'nestjs-zk-lock/dashboard']) {
         const imported = await import(entry);
         const required = require(entry);
         const names = Object.keys(required).filter((name) => name !== '__esModule');
         report[entry] = { exports: names.length, differing: names.filter((name) => imported[name] !== required[name]) };
       }
       report.nativeLoaded = Object.keys(require.cache).some((file) => file.includes('/node_modules/zookeeper/'));
       console.log(JSON.stringify(report));`,
    );
    const report = JSON.parse(run(process.execPath, [probe], scratch)) as Record<string, { exports: number; differing: string[] }> & { nativeLoaded: boolean };
    for (const entry of ['nestjs-zk-lock', 'nestjs-zk-lock/testing', 'nestjs-zk-lock/health', 'nestjs-zk-lock/dashboard']) {
      assert.ok(report[entry]!.exports > 0, `${entry} exports nothing`);
      assert.deepEqual(report[entry]!.differing, [], `${entry}: import and require disagree`);
    }
    assert.ok(report['nestjs-zk-lock']!.exports > 30);
    assert.equal(report.nativeLoaded, false, 'loading every entry point loaded the native client');
  });

  // Issues 30 and 31: an install compiles nothing. npm installs a package's dependencies and its
  // optional dependencies (and tries to build them), but not an optional peer dependency.
  it('installs nothing but itself: no dependency, the native client an optional peer', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(scratch, 'node_modules/nestjs-zk-lock/package.json'), 'utf8')) as Record<string, Record<string, unknown> | undefined>;
    assert.equal(pkg.dependencies, undefined, 'no runtime dependency');
    assert.equal(pkg.optionalDependencies, undefined, 'npm installs (and builds) optional dependencies');
    assert.equal(typeof pkg.peerDependencies?.zookeeper, 'string', 'the native client is a peer dependency');
    assert.deepEqual(pkg.peerDependenciesMeta?.zookeeper, { optional: true });
  });

  // Issue 31: `moduleResolution: node` reads `typesVersions`, not `exports`: a subpath missing there
  // has no types in such a project (the dashboard's had none).
  it('names every subpath of exports in typesVersions, with the types exports give require', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(scratch, 'node_modules/nestjs-zk-lock/package.json'), 'utf8')) as {
      exports: Record<string, string | { default?: { types?: string } }>;
      typesVersions: { '*': Record<string, string[]> };
    };
    const subpaths = Object.keys(pkg.exports).filter((key) => key !== '.' && key !== './package.json');
    assert.ok(subpaths.length > 0);
    for (const subpath of subpaths) {
      const types = (pkg.exports[subpath] as { default?: { types?: string } }).default?.types;
      assert.deepEqual(pkg.typesVersions['*'][subpath.slice(2)], [types], `typesVersions of ${subpath}`);
      assert.ok(fs.existsSync(path.join(scratch, 'node_modules/nestjs-zk-lock', types!)), `${types} is in the package`);
    }
  });

  it('runs its bin, the inspector CLI', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(scratch, 'node_modules/nestjs-zk-lock/package.json'), 'utf8')) as { bin: Record<string, string> };
    const usage = run(process.execPath, [path.join(scratch, 'node_modules/nestjs-zk-lock', pkg.bin['nestjs-zk-lock']!), '--help'], scratch);
    assert.match(usage, /^Usage: nestjs-zk-lock inspect/);
  });

  it('type-checks under moduleResolution node16, nodenext and bundler, in CommonJS and ES module projects', () => {
    const variants: { type: 'commonjs' | 'module'; options: Record<string, unknown> }[] = [
      // A CommonJS project under node16 cannot import Nest 12 itself (ES modules only), so only the ES module one.
      { type: 'module', options: { module: 'node16', moduleResolution: 'node16' } },
      { type: 'commonjs', options: { module: 'nodenext', moduleResolution: 'nodenext' } },
      { type: 'module', options: { module: 'nodenext', moduleResolution: 'nodenext' } },
      { type: 'commonjs', options: { module: 'commonjs', moduleResolution: 'bundler' } },
      { type: 'module', options: { module: 'preserve', moduleResolution: 'bundler' } },
    ];
    for (const { type, options } of variants) {
      const dir = project(`check-${type}-${String(options.module)}-${String(options.moduleResolution)}`, type, { ...options, noEmit: true });
      run(process.execPath, [TSC, '-p', 'tsconfig.json'], dir);
    }
  });

  it('runs a unit test on nestjs-zk-lock/testing and connects to a real server without the native client, from CommonJS and from an ES module', () => {
    const commonjs = project('run-commonjs', 'commonjs', { module: 'nodenext', moduleResolution: 'nodenext', outDir: 'out' });
    const esm = project('run-esm', 'module', { module: 'nodenext', moduleResolution: 'nodenext', outDir: 'out' });
    for (const dir of [commonjs, esm]) run(process.execPath, [TSC, '-p', 'tsconfig.json'], dir);
    for (const dir of [commonjs, esm]) {
      fs.writeFileSync(path.join(dir, 'out', 'package.json'), fs.readFileSync(path.join(dir, 'package.json')));
      const result = runWithoutNativeClient(path.join(dir, 'out', 'consumer.js'), dir);
      assert.deepEqual(result, { runs: ['build', 'by hand', 'rollUp'], elections: ['reports'], health: 'function', connected: 'connected', native: 'ZK_NATIVE_CLIENT_MISSING' }, dir);
    }
  });
});
