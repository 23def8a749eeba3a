/**
 * Partition sets on the dashboard (issue 33): the page's view shows each set's members (what each
 * owns and is assigned), its assigner and the partitions not settled, and follows a join: on the
 * root watch (a change below `<root>/partitions/<set>` marks the set stale), and on the one-shot
 * watches it falls back to without persistent watches (the set's members, assignment and partition
 * locks). Real server; replicas are `PartitionSet`s on sessions of their own.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DashboardView } from '../../src/dashboard/index.js';
import { PartitionSet } from '../../src/recipes/partition/partition-set.js';
import type { ZkSession } from '../../src/zookeeper/supervised-session.js';
import { openSession, sharedConnect, testRoot } from '../lock/lock-test-kit.js';
import { TEST_DRIVER } from '../support/test-driver.js';
import { startDashboardApp } from './dashboard-app.js';
import { SseReader } from './sse-reader.js';
import { WithoutPersistentWatches } from './without-persistent-watches.js';

const COUNT = 4;
const quiet = { warn() {}, error() {} };

/** The set `relay` as the view shows it, when every partition is owned as assigned over `members` replicas, evenly; else undefined. */
function settled(message: { event: string; data: unknown }, members: number): DashboardView['partitionSets'][number] | undefined {
  if (message.event !== 'view') return undefined;
  const set = (message.data as DashboardView).partitionSets.find((s) => s.name === 'relay');
  if (!set || set.members.length !== members || set.count !== COUNT) return undefined;
  const allOwned = set.partitions.length === COUNT && set.partitions.every((p) => p.owner !== null && set.members.some((m) => m.member === p.assignedTo && m.sessionId === p.owner!.sessionId));
  const even = set.members.every((m) => m.owned.length >= Math.floor(COUNT / members) && m.owned.length <= Math.ceil(COUNT / members));
  return allOwned && even ? set : undefined;
}

async function followsAJoin(persistent: boolean): Promise<void> {
  const root = testRoot();
  const { app, base } = await startDashboardApp(root, { wrap: persistent ? undefined : (session) => new WithoutPersistentWatches(session) });
  const sessions: ZkSession[] = [];
  const sets: PartitionSet[] = [];
  const join = async (identity: string) => {
    const session = await openSession(sharedConnect());
    sessions.push(session);
    const set = new PartitionSet(session, { root, name: 'relay', count: COUNT, identity, logger: quiet });
    sets.push(set);
    set.start();
  };
  const stream = await SseReader.open(`${base}/api/stream`);
  try {
    await join('relay-a');
    await join('relay-b');
    const two = await stream.next((m) => settled(m, 2) !== undefined, 15_000, 'the set over two replicas');
    const shown = settled(two, 2)!;
    assert.deepEqual(shown.members.map((m) => m.identity).sort(), ['relay-a', 'relay-b']);
    assert.ok(shown.assigner && ['relay-a', 'relay-b'].includes(shown.assigner.identity!), 'the assigner is shown');
    await join('relay-c'); // made after the page was open: the view follows it
    const three = settled(await stream.next((m) => settled(m, 3) !== undefined, 15_000, 'the set over three replicas'), 3)!;
    assert.deepEqual(three.members.map((m) => m.identity).sort(), ['relay-a', 'relay-b', 'relay-c']);
  } finally {
    stream.close();
    await Promise.allSettled(sets.map((set) => set.close()));
    for (const session of sessions) session.close();
    await app.close();
  }
}

describe('the dashboard shows partition sets', () => {
  it('on the root watch: members, owners, the assigner, and a join after the page opened', { skip: TEST_DRIVER === 'native' ? 'the zookeeper package has no persistent watches' : false }, () => followsAJoin(true));
  it('on one-shot watches (no persistent watches): the same', () => followsAJoin(false));
});
