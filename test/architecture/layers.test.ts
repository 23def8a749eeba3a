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
 * Bottom to top; a module belongs to the first layer with a pattern matching its path. Entry
 * points (the module, the health indicator, the CLI, the testing kit) sit on top.
 */
const LAYERS: readonly { readonly name: string; readonly patterns: readonly RegExp[] }[] = [
  // The diagnostics-channel sink knows channel names, not events: every layer can report through it.
  { name: 'errors', patterns: [/^errors\//, /^observability\/event-sink\.ts$/] },
  { name: 'zookeeper', patterns: [/^zookeeper\//] },
  // The dev server: the simulator's ensemble served over TCP (the CLI's `dev-server` runs it).
  { name: 'dev server', patterns: [/^dev-server\//] },
  // Shared by every recipe: paths, names, the fencing token, back-off.
  { name: 'recipes: common', patterns: [/^recipes\/[^/]+\.ts$/] },
  { name: 'recipes: queue and ready state', patterns: [/^recipes\/(queue|ready)\//] },
  // The queue's other drivers: a lock client hands out their leases too.
  { name: 'recipes: read/write lock and semaphore', patterns: [/^recipes\/(read-write|semaphore)\//] },
  { name: 'recipes: lock and election', patterns: [/^recipes\/(lock|election)\//] },
  // Partitioned leadership: one lock per partition, an election for the assigner.
  { name: 'recipes: partition', patterns: [/^recipes\/partition\//] },
  // Nest's answer to the library's errors, per transport: knows the errors only.
  { name: 'filters', patterns: [/^filters\//] },
  {
    name: 'configuration and events',
    patterns: [/^observability\//, /^zk-lock\.(constants|options|options-validator|test-runner|module-definition)\.ts$/],
  },
  { name: 'services', patterns: [/^services\//] },
  { name: 'decorators', patterns: [/^decorators\//] },
  { name: 'entry points', patterns: [/^zk-lock\.module\.ts$/, /^index\.ts$/, /^health\//, /^dashboard\//, /^cli\//, /^testing\//] },
];

/** The layers whose code must run without Nest (a bare `LockClient`, the CLI). */
const FREE_OF_NEST = new Set(['errors', 'zookeeper', 'dev server', 'recipes: common', 'recipes: queue and ready state', 'recipes: read/write lock and semaphore', 'recipes: lock and election', 'recipes: partition']);

function layerOf(file: string): number {
  const index = LAYERS.findIndex((layer) => layer.patterns.some((pattern) => pattern.test(file)));
  assert.ok(index >= 0, `${file} belongs to no layer: add it to LAYERS`);
  return index;
}

describe('source layers', () => {
  const graph = sourceGraph(SRC);

  it('finds the sources', () => {
    assert.ok(graph.size > 50, `${graph.size} modules under ${SRC}`);
    assert.ok(graph.get('recipes/queue/fair-queue.ts')?.has('zookeeper/session-state.ts'), 'a value import');
    assert.ok(graph.get('recipes/ready/ready-state.ts')?.has('zookeeper/types.ts'), 'a type-only import (`import type { Watcher }`)');
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

  it('keeps the lock and the election apart (each stands on the queue and the ready state alone)', () => {
    const crossing = [...graph].flatMap(([file, imports]) => {
      const [, recipe] = /^recipes\/(lock|election)\//.exec(file) ?? [];
      const other = recipe === 'lock' ? 'recipes/election/' : 'recipes/lock/';
      return recipe ? [...imports].filter((imported) => imported.startsWith(other)).map((imported) => `${file} imports ${imported}`) : [];
    });
    assert.deepEqual(crossing, []);
  });

  it('has no import cycle', () => {
    assert.deepEqual(importCycles(graph).map((cycle) => cycle.join(' -> ')), []);
  });

  it('keeps errors, zookeeper and the recipes free of @nestjs', () => {
    const offenders = [...graph.keys()].filter(
      (file) => FREE_OF_NEST.has(LAYERS[layerOf(file)]!.name) && /from\s+['"]@nestjs\//.test(fs.readFileSync(path.join(SRC, file), 'utf8')),
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
