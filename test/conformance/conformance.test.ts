/**
 * The differential conformance suite: every scenario runs on every target of targets.ts. The
 * reference (the real server) must produce the transcript pinned in the scenario's `expected`,
 * and every other target (the simulator) the same transcript as the reference in this run.
 * Each real-server target starts its own ZooKeeper rather than use the shared one: it needs JVM
 * flags for a fast container sweep. Targets run one at a time (each scenario's reference, then
 * the others, every test awaited): the simulator's virtual runtime, which patches the timers and
 * clocks of the whole process, is installed only inside its own runs.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { scenarios } from './scenarios.js';
import type { ConformanceTarget } from './target.js';
import { targets } from './targets.js';
import type { Json } from './transcript.js';

describe('conformance of every target to the real ZooKeeper', () => {
  const [reference, ...others] = targets;
  const running = new Map<string, ConformanceTarget>();
  /** The reference's transcript of each scenario in this run, for the other targets to match. */
  const referenceTranscripts = new Map<string, Json>();

  before(async () => {
    assert.equal(reference?.name, 'zookeeper/typescript', 'the first target is the real server through the default driver');
    for (const factory of targets) running.set(factory.name, await factory.start());
  });
  after(async () => {
    for (const target of running.values()) await target.close();
  });

  for (const scenario of scenarios) {
    describe(scenario.name, () => {
      it(`${reference!.name}: as recorded`, async () => {
        const transcript = await running.get(reference!.name)!.run(scenario.run);
        referenceTranscripts.set(scenario.name, transcript);
        assert.deepEqual(transcript, scenario.expected);
      });
      for (const other of others) {
        const missing = other.driver === 'native' && scenario.needs.length ? `the native driver (the zookeeper package's C client) cannot send ${scenario.needs.join(', ')}` : false;
        it(`${other.name}: as ${reference!.name}`, { skip: missing }, async (context) => {
          const expected = referenceTranscripts.get(scenario.name);
          if (expected === undefined) return context.skip(`no transcript of ${reference!.name} to compare with`);
          assert.deepEqual(await running.get(other.name)!.run(scenario.run), expected);
        });
      }
    });
  }
});
