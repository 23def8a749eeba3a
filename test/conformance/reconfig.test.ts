/**
 * Conformance of the simulated reconfig to ZooKeeper's (issue 32, a moving ensemble): the same
 * scenario on a real reconfig-enabled ensemble and on the simulator must give the same
 * transcript. A client knows server 1 only and follows `/zookeeper/config` with the library's
 * `EnsembleTracker`; server 2 joins, then server 1 is retired. The transcript: the config as the
 * client reads it at each step (members by id, role and client address named `m1`/`m2`, the
 * version, the node's stat), the data watch's notification, the client addresses the tracker
 * handed to the driver, the client's session events, and whether its session (and its ephemeral
 * node) lived on. Zxids, the config's version among them, are ranked as in every scenario.
 *
 * Separate from conformance.test.ts, whose targets are standalone servers: this one needs two
 * JVMs of its own, started once.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { parseEnsembleConfig } from '../../src/zookeeper/ensemble-config.js';
import { EnsembleTracker } from '../../src/zookeeper/ensemble-tracker.js';
import type { TrackedHandle } from '../../src/zookeeper/ensemble-tracker.js';
import type { ZkStat } from '../../src/zookeeper/types.js';
import { waitFor } from '../support/wait.js';
import { runOnSimulator, runOnZooKeeper, type ReconfigWorld } from './reconfig-worlds.js';
import { rankZxids, Transcript, type Json, type Recorded } from './transcript.js';

async function scenario(world: ReconfigWorld): Promise<Json> {
  const ROOT = `/conformance-reconfig-${randomUUID()}`;
  const t = new Transcript(ROOT);
  const c = await world.open();
  t.name(c, 'c');
  const zk = c.zk as typeof c.zk & TrackedHandle;
  /** The config as `c` reads it: members (client addresses named), version (a zxid), and its stat but for the data's length (the addresses' lengths differ). */
  const read = async (watcher?: Parameters<TrackedHandle['getConfig']>[0]): Promise<Recorded> => {
    const { data, stat } = await zk.getConfig(watcher);
    const config = parseEnsembleConfig(data.toString('utf8'));
    const members = config.members.map((m) => ({ id: m.id, role: m.role, client: m.client ? world.name(`${m.client.host}:${m.client.port}`) : null }));
    const { dataLength: _length, ...rest } = t.stat(stat as ZkStat) as Record<string, Recorded>;
    return { members, version: config.version === undefined ? null : BigInt(`0x${config.version}`), stat: rest };
  };
  await zk.create(ROOT);
  await zk.create(`${ROOT}/mine`, null, 'ephemeral');
  const session = zk.sessionId;
  const applied: string[][] = [];
  const tracker = new EnsembleTracker(zk, false, { log: () => {}, warn: () => {} }, (hosts) => applied.push(hosts.map((h) => world.name(`${h.host}:${h.port}`))));
  const watch = t.watch();
  try {
    const initial = await read(watch.watcher);
    tracker.refresh();
    await waitFor(() => applied.length === 1, { message: 'the tracker applied the first config' });
    await world.join();
    const fired = await watch.until(1);
    await waitFor(() => applied.length === 2, { message: 'the tracker applied the config with server 2' });
    const joined = await read();
    const from = c.events.length;
    await world.retireFirst();
    await c.next('connected', from);
    await waitFor(() => applied.length === 3, { message: 'the tracker applied the config without server 1' });
    const retired = await read();
    const mine = await zk.exists(`${ROOT}/mine`);
    // Consecutive repeats collapsed: how many connection attempts fail on the way is timing.
    const events = c.events.filter((event, i) => event !== c.events[i - 1]);
    return rankZxids({ initial, fired, joined, retired, applied, events, sameSession: zk.sessionId === session, mine: t.stat(mine) });
  } finally {
    tracker.stop();
  }
}

/** What the real ensemble gave, checked against ZooKeeper's sources. */
const config = (members: Json[], version: string): Json => ({
  members,
  // `version=` is the zxid of the reconfig that made the config (the first: the first leader's
  // NEWLEADER zxid), which is also the node's mzxid; the data version is -1 after every write of
  // it (`initConfigInZKDatabase`, and `PrepRequestProcessor`'s SetDataTxn of version -1).
  version,
  // Made before any transaction (czxid 0), its ACL set with version -1 (`DataTree.addConfigNode`).
  stat: { czxid: 'z1', mzxid: version, pzxid: 'z1', version: -1, cversion: 0, aversion: -1, owner: 'none', numChildren: 0 },
});
const m1 = { id: 1, role: 'participant', client: 'm1' };
const m2 = { id: 2, role: 'participant', client: 'm2' };
const EXPECTED: Json = {
  initial: config([m1], 'z2'),
  // A reconfig is a setData of the config node: its data watch fires NodeDataChanged.
  fired: ['changed !outside-root:/zookeeper/config'],
  joined: config([m1, m2], 'z4'),
  retired: config([m2], 'z5'),
  // The tracker handed the driver each membership once.
  applied: [['m1'], ['m1', 'm2'], ['m2']],
  // Server 1 retired (and stopped) dropped the client, which found server 2 through the config.
  events: ['connected', 'connecting', 'connected'],
  sameSession: true,
  mine: { czxid: 'z3', mzxid: 'z3', pzxid: 'z3', version: 0, cversion: 0, aversion: 0, owner: 'c', dataLength: 0, numChildren: 0 },
};

describe('conformance of the simulated reconfig to a real reconfig-enabled ensemble', () => {
  let reference: Json | undefined;
  it('zookeeper: as recorded', { timeout: 180_000 }, async () => {
    reference = await runOnZooKeeper(scenario);
    assert.deepEqual(reference, EXPECTED);
  });
  it('simulator: as zookeeper', async (context) => {
    if (reference === undefined) return context.skip('no transcript of the real ensemble to compare with');
    assert.deepEqual(await runOnSimulator(scenario), reference);
  });
});
