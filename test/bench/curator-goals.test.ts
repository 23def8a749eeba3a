/**
 * The table's goals that are ratios to Curator (issue 32), no server needed: with a `curator`
 * result in the document (Curator run by the harness in the same run) they use its figures and
 * say "same run"; without one they fall back to BENCHMARKS.md's and say so.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resultTable } from '../../bench/table.js';

const summary = (p50: number) => ({ p50 });
const w2 = (acquisitionsPerS: number, handoffP50: number, requests = 5) => ({
  acquisitions_per_s: acquisitionsPerS, handoff_ms: summary(handoffP50), requests_per_acquisition: requests,
});
const library = {
  W2: { driver: 'typescript', c8: { clients: 8, ...w2(1700, 0.3) }, c32: { clients: 32, ...w2(1900, 0.3) } },
  W7: {
    driver: 'typescript', operations_per_s: 1600, read_acquire_ms: summary(2), write_acquire_ms: summary(2),
    requests_per_operation: 4.45, watch_notifications_per_operation: 0.5, max_concurrent_readers: 3, exclusion_violations: 0,
  },
  W8: {
    driver: 'typescript', acquisitions_per_s: 900, acquire_ms: summary(10), requests_per_acquisition: 4.9,
    watch_notifications_per_acquisition: 1.5, max_leases: 4, max_concurrent_holders: 4, exclusion_violations: 0,
  },
};
const rows = (table: string, prefix: string) => table.split('\n').filter((line) => line.startsWith(prefix));

describe('bench table: goals relative to Curator', () => {
  it('uses the Curator figures of the same run when the document has them', () => {
    const doc = {
      workloads: {
        W2: { 'nestjs-zk-lock': library.W2, curator: { c8: { clients: 8, ...w2(800, 0.4) }, c32: { clients: 32, ...w2(1000, 0.35) } } },
        W7: { 'nestjs-zk-lock': library.W7, curator: { ...library.W7, operations_per_s: 1000, requests_per_operation: 4.46, watch_notifications_per_operation: 0.45 } },
        W8: { 'nestjs-zk-lock': library.W8, curator: { ...library.W8, acquisitions_per_s: 700, requests_per_acquisition: 9.03, watch_notifications_per_acquisition: 2 } },
      },
    };
    const table = resultTable(doc);
    assert.match(table, /\| W2 c8 \| typescript \| acquisitions\/s \| 1700 \| 800 \| [^|]* \| ≥ 2 × Curator \(same run\) = 1600 \| yes \|/);
    assert.match(table, /\| W2 c32 \| typescript \| acquisitions\/s \| 1900 \| 1000 \| [^|]* \| ≥ 2 × Curator \(same run\) = 2000 \| \*\*no\*\* \|/);
    assert.match(table, /\| W2 c32 \| typescript \| hand-off p50 \| 0\.300 ms \| 0\.350 ms \| [^|]* \| ≤ Curator \(same run\) \| yes \|/);
    assert.match(table, /\| W7 \| typescript \| operations\/s \| 1600 \| 1000 \| [^|]* \| ≥ 1\.5 × Curator \(same run\) = 1500 \| yes \|/);
    assert.match(table, /\| W7 \| typescript \| requests \/ operation \| 4\.45 \| 4\.46 \| [^|]* \| ≤ Curator \(same run\) \| yes \|/);
    assert.match(table, /\| W7 \| typescript \| notifications \/ operation \| 0\.50 \| 0\.45 \| [^|]* \| ≤ Curator \(same run\) \| \*\*no\*\* \|/);
    assert.match(table, /\| W8 \| typescript \| acquisitions\/s \| 900 \| 700 \| [^|]* \| ≥ 1\.2 × Curator \(same run\) = 840 \| yes \|/);
    assert.match(table, /\| W8 \| typescript \| requests \/ acquisition \| 4\.90 \| 9\.03 \| [^|]* \| ≤ 5\.00 \| yes \|/);
    assert.doesNotMatch(table, /BENCHMARKS\.md/);
  });

  it('falls back to the BENCHMARKS.md figures, labelled, when Curator did not run (or failed)', () => {
    const doc = {
      workloads: {
        W2: { 'nestjs-zk-lock': library.W2 },
        W7: { 'nestjs-zk-lock': library.W7, curator: { error: 'W7 printed no JSON result (exit 1)' } },
        W8: { 'nestjs-zk-lock': library.W8 },
      },
    };
    const table = resultTable(doc);
    assert.match(table, /\| W2 c8 \| typescript \| acquisitions\/s \| 1700 \| 705–806 \| [^|]* \| ≥ 2 × Curator \(BENCHMARKS\.md\) = 1410–1612 \| yes \|/);
    assert.match(table, /\| W2 c32 \| typescript \| acquisitions\/s \| 1900 \|  \| [^|]* \| ≥ 2 × Curator \(not run\) \|  \|/);
    assert.match(table, /\| W7 \| typescript \| operations\/s \| 1600 \| 1169–1264 \| [^|]* \| ≥ 1\.5 × Curator \(BENCHMARKS\.md\) = 1754–1896 \| \*\*no\*\* \|/);
    assert.match(table, /\| W7 \| typescript \| requests \/ operation \| 4\.45 \| 4\.39–4\.47 \| [^|]* \| ≤ Curator \(BENCHMARKS\.md\) \| \*\*no\*\* \|/);
    assert.match(table, /\| W7 \| Curator \| error \| W7 printed no JSON result/);
    assert.match(table, /\| W8 \| typescript \| requests \/ acquisition \| 4\.90 \| 9\.03–9\.04 \| [^|]* \| ≤ 5\.00 \| yes \|/);
    assert.equal(rows(table, '| W2 c8 |').length, 3, table);
  });

  it('compares the medians over the rounds when both ran in rounds, and says so', () => {
    const round = (rate: number) => ({ c8: { clients: 8, ...w2(rate, 0.4) } });
    const curator = { ...round(900), rounds: [round(900), round(700), round(800)] };
    const ours = (rate: number) => ({ driver: 'typescript', c8: { ...library.W2.c8, acquisitions_per_s: rate } });
    const table = resultTable({ workloads: { W2: { 'nestjs-zk-lock': { ...ours(1700), rounds: [ours(1700), ours(1500), ours(1550)] }, curator } } });
    assert.match(table, /\| W2 c8 \| typescript \| acquisitions\/s \| 1700 \| 800 \| [^|]* \| ≥ 2 × Curator \(same run, median of 3 rounds\) = 1600; ours: median 1550 \| \*\*no\*\* \|/);
  });
});
