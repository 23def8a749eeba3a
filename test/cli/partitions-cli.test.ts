/**
 * Partition sets in the CLI, against the shared server: `inspect` shows each set's members (what
 * each is assigned and owns), its assigner, and the partitions that are not owned or are moving;
 * `hand-over <set> <partition>` asks the owner, the partition moves to another replica and
 * balance holds; a replica's own `handOver` keeps what an operator asked until it has moved (the
 * member record is merged, not overwritten); nobody to ask exits 3.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { Inspection } from '../../src/cli/inspect.js';
import type { HandOverOutcome } from '../../src/cli/hand-over.js';
import { parseAssignment, parseMember } from '../../src/recipes/partition/partition-records.js';
import { randomRoot } from '../fixtures/session-helpers.js';
import { balanced, startReplica, stopReplica, type Replica } from '../partition/partition-kit.js';
import { waitFor } from '../support/wait.js';
import { sharedConnect } from '../lock/lock-test-kit.js';
import { runCli } from './cli-runner.js';

const COUNT = 8;

describe('nestjs-zk-lock inspect / hand-over: partition sets', () => {
  const root = randomRoot();
  const replicas: Replica[] = [];
  after(async () => {
    await Promise.allSettled(replicas.map(stopReplica));
  });
  const connect = () => ['--connect', sharedConnect(), '--root', root];

  it('inspect shows the members, what each is assigned and owns, and the assigner', async () => {
    for (const name of ['relay-a', 'relay-b', 'relay-c']) replicas.push(await startReplica(root, name, { count: COUNT }));
    await balanced(replicas, COUNT);
    // The stored assignment and the owners agree once the moves are over.
    const inspection = await waitFor(async () => {
      const run = await runCli(['inspect', ...connect(), '--json']);
      assert.equal(run.code, 0, run.stderr);
      const read = JSON.parse(run.stdout) as Inspection;
      const set = read.partitionSets[0];
      return set && set.partitions.length === COUNT && set.partitions.every((p) => p.owner && set.members.some((m) => m.member === p.assignedTo && m.sessionId === p.owner!.sessionId)) ? read : undefined;
    }, { message: 'the inspection shows every partition owned as assigned' });
    const [set] = inspection.partitionSets;
    assert.equal(inspection.partitionSets.length, 1);
    assert.equal(set!.name, 'outbox');
    assert.equal(set!.count, COUNT);
    assert.deepEqual(set!.members.map((m) => m.identity), ['relay-a', 'relay-b', 'relay-c']);
    for (const member of set!.members) {
      const replica = replicas.find((r) => r.name === member.identity)!;
      assert.equal(member.sessionId, replica.session.sessionId);
      assert.deepEqual(member.owned, [...replica.set.ownedNow].sort((a, b) => a - b));
      assert.deepEqual(member.assigned, member.owned);
    }
    assert.deepEqual(set!.members.map((m) => m.owned.length).sort(), [2, 3, 3]);
    assert.ok(set!.assigner && ['relay-a', 'relay-b', 'relay-c'].includes(set!.assigner.identity!), 'the assigner is one of the replicas');

    const text = (await runCli(['inspect', ...connect()])).stdout;
    assert.match(text, /PARTITION SETS \(1\)\noutbox: 8 partitions, 3 members, assigner relay-[abc]\n/);
    assert.match(text, /IDENTITY +CAPACITY +ASSIGNED +OWNS +DECLINED +SESSION +MEMBER\n +relay-a +1 +[23] +[23] +- +0x/);
    assert.match(text, /every partition owned as assigned/);
  });

  it('hand-over asks the owner: the partition moves to another replica, balance holds', async () => {
    const owner = replicas[0]!;
    const partition = owner.set.ownedNow[0]!;
    const run = await runCli(['hand-over', ...connect(), '--json', 'outbox', String(partition)]);
    assert.equal(run.code, 0, run.stderr);
    const outcome = JSON.parse(run.stdout) as HandOverOutcome;
    assert.deepEqual({ ...outcome, member: undefined }, {
      version: 1, command: 'hand-over', name: 'outbox', requested: true, partition, member: undefined,
      identity: owner.name, sessionId: owner.session.sessionId, repeated: false,
    });
    await waitFor(() => !owner.set.ownedNow.includes(partition) && replicas.some((r) => r !== owner && r.set.ownedNow.includes(partition)), { message: `partition ${partition} moved off ${owner.name}` });
    const owners = await balanced(replicas, COUNT);
    assert.notEqual(owners[partition], owner.name);

  });

  it("a replica's own handOver keeps the partitions an operator declined for it", async () => {
    const replica = replicas[1]!;
    const [byOperator, byItself] = replica.set.ownedNow;
    assert.ok(byOperator !== undefined && byItself !== undefined, `${replica.name} owns two partitions`);
    assert.equal((await runCli(['hand-over', ...connect(), 'outbox', String(byOperator)])).code, 0);
    await replica.set.handOver(byItself);
    const path = `${replica.set.path}/members/${replica.set.memberId!}`;
    const { data } = await replica.session.getData(path);
    const declined = parseMember(path, replica.set.memberId!, data).declined!;
    // Read after the node: a request leaves the node only once its partition is assigned elsewhere.
    const assignment = `${replica.set.path}/assignment`;
    const { owners } = parseAssignment(assignment, (await replica.session.getData(assignment)).data);
    for (const k of [byOperator, byItself]) assert.ok(declined.includes(k) || owners[k] !== replica.set.memberId, `partition ${k} still declined or moved (declined: ${declined.join()})`);
    await waitFor(() => !replica.set.ownedNow.includes(byOperator) && !replica.set.ownedNow.includes(byItself), { message: 'both moved' });
    await balanced(replicas, COUNT);
  });

  it('nobody to ask exits 3; bad usage exits 2', async () => {
    const none = await runCli(['hand-over', ...connect(), 'outbox', '99']);
    assert.equal(none.code, 3, none.stderr);
    assert.equal(none.stdout, 'Nobody owns partition 99 of set outbox (it is moving, or nobody is in the set): nobody was asked.\n');
    const missing = await runCli(['hand-over', ...connect(), 'outbox']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /hand-over needs a partition number after the set/);
    const extra = await runCli(['hand-over', ...connect(), 'outbox', '1', '2']);
    assert.equal(extra.code, 2);
    assert.match(extra.stderr, /unexpected argument "2" \(hand-over takes a partition set and a partition\)/);
  });
});
