/**
 * `EnsembleTracker`'s bookkeeping, with a scripted stand-in for the two requests it makes (the
 * real reads are in moving-ensemble.test.ts and ensemble-tracking.test.ts): one watch at a time,
 * a change seen during a read reads again, an unchanged membership is not handed on twice, what
 * cannot be read changes nothing and is logged once per cause, and a lost connection is not logged.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ZooKeeperError } from '../../src/errors/zookeeper.error.js';
import type { ServerAddress } from '../../src/zookeeper/connect-string.js';
import { EnsembleTracker } from '../../src/zookeeper/ensemble-tracker.js';
import type { Watcher, ZkStat } from '../../src/zookeeper/types.js';
import { sampleStat } from '../support/hand-jute.js';

/** Answers each getConfig with the next scripted outcome, once `answer()` is called. */
class ScriptedConfig {
  readonly watchers: Watcher[] = [];
  readonly updates: { hosts: string[]; left: string[] }[] = [];
  private readonly waiting: ((outcome: string | Error) => void)[] = [];
  reads = 0;

  readonly handle = {
    getConfig: (watcher?: Watcher): Promise<{ data: Buffer; stat: ZkStat }> => {
      this.reads += 1;
      return new Promise((resolve, reject) => {
        this.waiting.push((outcome) => {
          if (outcome instanceof Error) return reject(outcome);
          if (watcher) this.watchers.push(watcher);
          resolve({ data: Buffer.from(outcome), stat: sampleStat() });
        });
      });
    },
    updateServers: (hosts: readonly ServerAddress[], left: readonly ServerAddress[]) => {
      this.updates.push({ hosts: hosts.map((h) => `${h.host}:${h.port}`), left: left.map((h) => `${h.host}:${h.port}`) });
    },
  };

  async answer(outcome: string | Error): Promise<void> {
    const next = this.waiting.shift();
    assert.ok(next, 'a read is waiting');
    next(outcome);
    await new Promise((resolve) => setImmediate(resolve));
  }

  fire(): void {
    const watchers = this.watchers.splice(0);
    for (const watcher of watchers) watcher({ type: 'changed', path: '/zookeeper/config' });
  }
}

const config = (...ports: number[]) => ports.map((port, i) => `server.${i + 1}=127.0.0.1:${port + 1000}:${port + 2000}:participant;127.0.0.1:${port}`).join('\n');

describe('EnsembleTracker', () => {
  it('hands on each new membership once, with the servers that left; one watch at a time; a change during a read reads again', async () => {
    const script = new ScriptedConfig();
    const logs: string[] = [];
    const tracker = new EnsembleTracker(script.handle, false, { log: (m) => logs.push(m), warn: (m) => logs.push(m) }, () => undefined);
    tracker.refresh();
    await script.answer(config(1, 2, 3));
    assert.deepEqual(script.updates, [{ hosts: ['127.0.0.1:1', '127.0.0.1:2', '127.0.0.1:3'], left: [] }]);
    assert.equal(script.watchers.length, 1);

    tracker.refresh(); // a reconnection: the watch stands, so this read sets none
    await script.answer(config(3, 2, 1));
    assert.equal(script.watchers.length, 1, 'no second watcher');
    assert.equal(script.updates.length, 1, 'the same members in another order are no change');

    script.fire(); // a reconfig: read again, with the watch
    script.fire();
    tracker.refresh(); // a reconnection while that read is in flight: one more read after it
    await script.answer(config(2, 3));
    assert.equal(script.reads, 4, 'the second refresh waited for the read in flight');
    await script.answer(config(2, 3, 4));
    assert.deepEqual(script.updates.slice(1), [
      { hosts: ['127.0.0.1:2', '127.0.0.1:3'], left: ['127.0.0.1:1'] },
      { hosts: ['127.0.0.1:2', '127.0.0.1:3', '127.0.0.1:4'], left: [] },
    ]);
    assert.equal(script.watchers.length, 1);
    assert.equal(logs.filter((line) => line.startsWith('ZooKeeper ensemble')).length, 3);
  });

  it('changes nothing for an empty or unreadable config, logs each cause once, and no lost connection', async () => {
    const script = new ScriptedConfig();
    const logs: string[] = [];
    const tracker = new EnsembleTracker(script.handle, false, { log: (m) => logs.push(`log ${m}`), warn: (m) => logs.push(`warn ${m}`) }, () => undefined);
    for (const outcome of ['', 'server.1=a:1:2:voter;a:3', 'server.1=a:1:2:voter;a:3', new ZooKeeperError(-101, 'getData', '/zookeeper/config'), new ZooKeeperError(-4, 'getData', '/zookeeper/config'), 'server.1=a:1:2']) {
      tracker.refresh();
      await script.answer(outcome);
    }
    assert.deepEqual(script.updates, [], 'no member with a client address was ever listed');
    assert.equal(logs.length, 2, logs.join('\n'));
    assert.match(logs[0]!, /^warn ZooKeeper ensemble: .*Unreadable line in \/zookeeper\/config \('server.1=a:1:2:voter;a:3'\)/);
    assert.match(logs[1]!, /^warn ZooKeeper ensemble: the server has no \/zookeeper\/config \(older than 3.5\); the session keeps the servers it has$/);
    tracker.stop();
    tracker.refresh();
    assert.equal(script.reads, 6, 'a stopped tracker reads nothing');
  });
});
