/**
 * The benchmark's reading of result documents (bench/table.ts, bench/driver-comparison.ts), no
 * server needed: a document from before the TypeScript driver (one result under
 * `nestjs-zk-lock`, no `driver`) reads as the native driver's; a document with both drivers shows
 * each under its Driver and compares them as "times better" for the TypeScript driver.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { driverComparison, figure, floorResult, libraryResult } from '../../bench/driver-comparison.js';
import { resultTable } from '../../bench/table.js';

const cycle = (p50: number) => ({ cycle_ms: { p50 }, rtt_ms: { all: { p50: p50 / 3 } }, requests_per_cycle: 3 });

describe('bench result documents', () => {
  it('reads a result without a driver (an older document) as the native driver\'s', () => {
    const w1 = { 'nestjs-zk-lock': { impl: 'nestjs-zk-lock', ...cycle(0.5) } };
    assert.equal(libraryResult(w1, 'native'), w1['nestjs-zk-lock']);
    assert.equal(libraryResult(w1, 'typescript'), undefined);
    const table = resultTable({ workloads: { W1: w1, W5: { 'node-zookeeper': cycle(0.6) } } });
    const rows = table.split('\n').filter((line) => line.startsWith('| W1 |'));
    assert.equal(rows.length, 3, table);
    for (const row of rows) assert.match(row, /^\| W1 \| native \|/);
    assert.match(table, /\| W1 \| native \| cycle p50 \/ W5 \(same client\) cycle p50 \| 0\.833 \|/);
  });

  it('shows both drivers side by side and the ratios of the same run', () => {
    const doc = {
      workloads: {
        W1: {
          'nestjs-zk-lock': { driver: 'typescript', ...cycle(0.5) },
          'nestjs-zk-lock.native': { driver: 'native', ...cycle(0.6) },
        },
        W2: {
          'nestjs-zk-lock': { driver: 'typescript', c8: { clients: 8, acquisitions_per_s: 1200, handoff_ms: { p50: 0.4 }, requests_per_acquisition: 5 } },
          'nestjs-zk-lock.native': { driver: 'native', error: 'W2 printed no JSON result (exit 1)' },
        },
        W5: { 'typescript-client': { driver: 'typescript', ...cycle(0.55) }, 'node-zookeeper': { driver: 'native', ...cycle(0.55) } },
      },
    };
    assert.equal(floorResult(doc.workloads.W5, 'typescript'), doc.workloads.W5['typescript-client']);
    const table = resultTable(doc);
    assert.match(table, /\| W1 \| typescript \| cycle p50 \| 0\.500 ms \|/);
    assert.match(table, /\| W1 \| native \| cycle p50 \| 0\.600 ms \|/);
    assert.match(table, /\| W2 \| native \| error \| W2 printed no JSON result/);
    const comparison = driverComparison(doc);
    assert.match(comparison, /\| W1 cycle p50, ms \| 0\.500 \| 0\.600 \| 1\.20 \| ≥ 1\.10 \| yes \|/);
    assert.match(comparison, /\| W5 raw floor cycle p50, ms \| 0\.550 \| 0\.550 \| 1\.00 \| ≥ 1\.00 \| yes \|/);
    assert.match(comparison, /\| W2 c8 acquisitions\/s \| 1200 \| n\/a \| n\/a \| ≥ 1\.10 \|  \|/);
    assert.doesNotMatch(comparison, /process CPU/, 'no CPU row without CPU figures');
  });

  it('compares the process CPU per operation, every thread counted, without a goal', () => {
    const withCpu = (p50: number, cpu: number) => ({ ...cycle(p50), process_cpu_ms_per_cycle: { user_ms: cpu / 2, system_ms: cpu / 2, total_ms: cpu } });
    const comparison = driverComparison({
      workloads: { W1: { 'nestjs-zk-lock': { driver: 'typescript', ...withCpu(0.5, 0.12) }, 'nestjs-zk-lock.native': { driver: 'native', ...withCpu(0.5, 0.24) } } },
    });
    assert.match(comparison, /\| W1 process CPU \/ cycle, ms \| 0\.120 \| 0\.240 \| 2\.00 \|  \|  \|/);
  });

  it('compares a workload run in rounds by the median of each figure over its rounds, failed rounds left out', () => {
    const rounds = (...p50s: (number | undefined)[]) => {
      const all = p50s.map((p50) => (p50 === undefined ? { error: 'W1 printed no JSON result (exit 1)' } : cycle(p50)));
      return { ...all[0], rounds: all };
    };
    const doc = {
      workloads: {
        W1: {
          'nestjs-zk-lock': { driver: 'typescript', ...rounds(0.9, 0.4, 0.5) },
          'nestjs-zk-lock.native': { driver: 'native', ...rounds(0.6, undefined, 0.5) },
        },
      },
    };
    assert.equal(figure(doc.workloads.W1['nestjs-zk-lock'], (r) => r.cycle_ms?.p50), 0.5);
    assert.equal(figure(doc.workloads.W1['nestjs-zk-lock.native'], (r) => r.cycle_ms?.p50), 0.55);
    const comparison = driverComparison(doc);
    assert.match(comparison, /medians over 3 rounds/);
    assert.match(comparison, /\| W1 cycle p50, ms \| 0\.500 \| 0\.550 \| 1\.10 \| ≥ 1\.10 \| yes \|/);
  });

  it('shows W1 with auth per driver against its own goal: 3 requests on the default driver, 4 (create + setAcl) on the binding', () => {
    const table = resultTable({
      workloads: {
        W1A: {
          'nestjs-zk-lock': { driver: 'typescript', ...cycle(0.5), requests_per_cycle: 3 },
          'nestjs-zk-lock.native': { driver: 'native', ...cycle(0.7), requests_per_cycle: 4 },
        },
      },
    });
    assert.match(table, /\| W1A \| typescript \| requests \/ cycle, with auth and a creator-only ACL \| 3\.00 \|.*\| 3\.00 \| yes \|/);
    assert.match(table, /\| W1A \| native \| requests \/ cycle, with auth and a creator-only ACL \| 4\.00 \|.*\| 4\.00 \| yes \|/);
  });
});
