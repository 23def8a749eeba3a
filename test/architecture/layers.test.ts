/**
 * The layers of `src/`, enforced on the sources (type-only imports count: they are how one
 * layer comes to know another's shapes). A module imports from its own layer or the ones below
 * it, never above, and no chain of imports comes back to where it started.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { importCycles, sourceGraph } from '../support/import-graph.js';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../src');

/**
 * Bottom to top; a module belongs to the first layer with a prefix of its path. Entry points
 * (the module, the health indicator, the CLI, the testing kit) sit on top.
 */
const LAYERS: readonly { readonly name: string; readonly prefixes: readonly string[] }[] = [
  // The diagnostics-channel sink knows channel names, not events: every layer can report through it.
  { name: 'errors', prefixes: ['errors/', 'observability/event-sink.ts'] },
  { name: 'zookeeper', prefixes: ['zookeeper/'] },
  { name: 'recipes', prefixes: ['recipes/'] },
  {
    name: 'configuration and events',
    prefixes: ['observability/', 'zk-lock.constants.ts', 'zk-lock.options.ts', 'zk-lock.options-validator.ts', 'zk-lock.module-definition.ts'],
  },
  { name: 'services', prefixes: ['services/'] },
  { name: 'decorators', prefixes: ['decorators/'] },
  { name: 'entry points', prefixes: ['zk-lock.module.ts', 'index.ts', 'health/', 'cli/', 'testing/'] },
];

/** The layers whose code must run without Nest (a bare `LockClient`, the CLI). */
const FREE_OF_NEST = ['errors', 'zookeeper', 'recipes'];

function layerOf(file: string): number {
  const index = LAYERS.findIndex((layer) => layer.prefixes.some((prefix) => file.startsWith(prefix)));
  assert.ok(index >= 0, `${file} belongs to no layer: add it to LAYERS`);
  return index;
}

describe('source layers', () => {
  const graph = sourceGraph(SRC);

  it('finds the sources', () => {
    assert.ok(graph.size > 50, `${graph.size} modules under ${SRC}`);
    assert.ok(graph.get('recipes/fair-queue.ts')?.has('zookeeper/session-state.ts'), 'a value import');
    assert.ok(graph.get('recipes/ready-state.ts')?.has('zookeeper/types.ts'), 'a type-only import (`import type { Watcher }`)');
  });

  it('imports only from the same layer or below', () => {
    const upward: string[] = [];
    for (const [file, imports] of graph) {
      for (const imported of imports) {
        if (layerOf(imported) > layerOf(file)) upward.push(`${file} (${LAYERS[layerOf(file)]!.name}) imports ${imported} (${LAYERS[layerOf(imported)]!.name})`);
      }
    }
    assert.deepEqual(upward, []);
  });

  it('has no import cycle', () => {
    assert.deepEqual(importCycles(graph).map((cycle) => cycle.join(' -> ')), []);
  });

  it(`keeps ${FREE_OF_NEST.join(', ')} free of @nestjs`, () => {
    const offenders = [...graph.keys()].filter(
      (file) => FREE_OF_NEST.includes(LAYERS[layerOf(file)]!.name) && /from\s+['"]@nestjs\//.test(fs.readFileSync(path.join(SRC, file), 'utf8')),
    );
    assert.deepEqual(offenders, []);
  });
});

describe('importCycles', () => {
  it('finds each cycle once, from its least module, and none in a tree', () => {
    const graph = new Map([
      ['a.ts', new Set(['b.ts'])],
      ['b.ts', new Set(['c.ts'])],
      ['c.ts', new Set(['a.ts'])],
      ['d.ts', new Set(['a.ts'])],
    ]);
    assert.deepEqual(importCycles(graph), [['a.ts', 'b.ts', 'c.ts']]);
    assert.deepEqual(importCycles(new Map([['a.ts', new Set(['b.ts'])], ['b.ts', new Set<string>()]])), []);
  });
});
