#!/usr/bin/env node
/**
 * `npm run build`, after `tsc -p tsconfig.build.json` compiled src/ to CommonJS in dist/: makes
 * the package load as one copy from everywhere (see the README's "Package format").
 * - dist/package.json says "type": "commonjs" (this repository's own package.json says "module":
 *   its tests, scripts and benchmarks are ES modules).
 * - dist/esm/ is the thin ES module face of each entry point: a wrapper that re-exports the
 *   CommonJS module (so `import` and `require` give the very same classes, which Nest's injection
 *   by class identity needs), and a copy of the declarations that TypeScript reads as ES module
 *   declarations (a CommonJS declaration importing the ES-module-only Nest 12 would be refused
 *   under `moduleResolution: node16`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const esm = path.join(dist, 'esm');
/** The entry points of package.json's `exports`, as paths in dist/ without `.js`. */
const ENTRY_POINTS = ['index', 'health/index', 'dashboard/index', 'testing/index'];

const writeJson = (file, value) => fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);

writeJson(path.join(dist, 'package.json'), { type: 'commonjs' });

fs.rmSync(esm, { recursive: true, force: true });
for (const file of fs.readdirSync(dist, { recursive: true })) {
  if (!/\.d\.c?ts$/.test(file)) continue;
  fs.mkdirSync(path.dirname(path.join(esm, file)), { recursive: true });
  fs.copyFileSync(path.join(dist, file), path.join(esm, file));
}
writeJson(path.join(esm, 'package.json'), { type: 'module' });
for (const entry of ENTRY_POINTS) {
  const wrapper = path.join(esm, `${entry}.js`);
  const target = path.relative(path.dirname(wrapper), path.join(dist, `${entry}.js`));
  fs.writeFileSync(wrapper, `export * from '${target.startsWith('.') ? target : `./${target}`}';\n`);
}
