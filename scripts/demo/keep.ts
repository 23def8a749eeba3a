/**
 * `npm run demo -- --keep`: after the scenario, bring the stopped replicas back, say how to reach
 * everything, then narrate what the replicas do until Ctrl-C.
 */
import type { DemoEvent, EventStream } from './event-stream.js';
import type { Narrator } from './narrator.js';
import type { Replica } from './replica.js';

export interface KeepContext {
  readonly narrator: Narrator;
  readonly stream: EventStream;
  readonly replicas: Replica[];
  readonly restart: (replica: Replica) => Replica;
  readonly zookeeper: { connect: string; root: string; logFile?: string };
}

/** Restarts the replicas that are down, prints how to explore, streams events until `until` resolves (Ctrl-C). */
export async function keepRunning({ narrator, stream, replicas, restart, zookeeper }: KeepContext, until: Promise<void>): Promise<void> {
  narrator.section('The cluster keeps running (--keep)');
  const from = stream.events.length;
  const restarted: Replica[] = [];
  for (const [i, replica] of replicas.entries()) if (!replica.isAlive) restarted.push((replicas[i] = restart(replica)));
  narrator.line(narrator.paint(`  Starting ${restarted.map((r) => r.name).join(' and ')} again, so that three replicas run...`, 'dim'));
  await Promise.all(restarted.map((r) => stream.next('ready', (e) => e.replica === r.name, { from, timeoutMs: 45_000, what: `${r.name} to start again` })));
  const status = await replicas.find((r) => r.isAlive)!.get('/status');
  const leaderReplica = replicas.find((r) => r.name === status.body.leader) ?? replicas[0]!;

  const row = (label: string, text: string) => narrator.line(`  ${narrator.paint(label.padEnd(11), 'bold')}${text}`);
  row('ZooKeeper', `${zookeeper.connect}   znodes under ${zookeeper.root}${zookeeper.logFile ? `   log ${zookeeper.logFile}` : ''}`);
  for (const r of replicas) row(r.name, `${r.url}   pid ${r.pid}${r.isAlive ? '' : ' (down)'}   log ${r.logFile}`);
  narrator.line();
  narrator.line('  Try:');
  const json = `-H 'content-type: application/json'`;
  row('dashboard', `${replicas[0]!.url}/zk-lock   (open it in a browser: every lock, election and waiter, live)`);
  narrator.line();
  const tries: [string, string][] = [
    ["who leads, the election queue, the locks this replica holds", `curl -s ${replicas[0]!.url}/status`],
    ['the terminus health check (session state, leadership)', `curl -s ${replicas[0]!.url}/health`],
    ['every lock and election, from ZooKeeper', `node build/src/cli/main.js inspect --connect ${zookeeper.connect} --root ${zookeeper.root}`],
    ['a transfer (any replica)', `curl -s -X POST ${replicas[1]!.url}/transfers ${json} -d '{"account":"alice","amount":10}'`],
    [`a settlement batch (the leader, ${leaderReplica.name}, runs it; followers answer 409)`, `curl -s -X POST ${leaderReplica.url}/batches ${json} -d '{"batch":"mine"}'`],
    ['crash the leader: another leads after the session timeout', `kill -9 ${leaderReplica.pid}`],
    ['or stop it gracefully: leadership moves at once', `kill ${leaderReplica.pid}`],
  ];
  for (const [what, command] of tries) {
    narrator.line(`    ${narrator.paint(`# ${what}`, 'dim')}`);
    narrator.line(`    ${command}`);
  }
  narrator.line();
  narrator.line(`  What the replicas do is printed below as it happens. ${narrator.paint('Ctrl-C stops everything the demo started.', 'bold')}`);
  narrator.line();

  const print = (t: number, replica: string, text: string) => narrator.line(`${narrator.paint(new Date(t).toTimeString().slice(0, 8), 'dim')}  ${narrator.who(replica)}  ${text}`);
  const stop = stream.subscribe((event) => {
    const text = describe(event);
    if (text) print(event.t, event.replica, text);
  });
  for (const replica of replicas) {
    void replica.exited.then(({ code, signal }) => print(Date.now(), replica.name, `exited (${signal ?? `code ${code}`})`));
  }
  await until;
  stop();
  narrator.line();
  narrator.line('Stopping the replicas and ZooKeeper...');
}

function describe(e: DemoEvent): string | undefined {
  const token = `token ${String(e.token)}`;
  switch (e.ev) {
    case 'ready':
      return `up (pid ${String(e.pid)})`;
    case 'leader':
      return e.value ? `★ leads (${token})` : 'no longer leads';
    case 'leader-recovery':
      return `@OnLeaderRecovery: ${String(e.holder)} died while running ${String(e.running ?? 'nothing')}`;
    case 'batch-started':
      return `${String(e.batch)} started at item ${Number(e.from) + 1}/${String(e.total)} (${token})`;
    case 'batch-checkpoint':
      return `${String(e.batch)} checkpoint ${String(e.settled)}/${String(e.total)}`;
    case 'batch-finished':
      return `${String(e.batch)} finished`;
    case 'batch-recovered':
      return `↻ repaired ${String(e.batch)}: ${String(e.holder)} (${token}) stopped at ${String(e.settled)}/${String(e.total)}`;
    case 'transfer':
      return `transfer ${String(e.account)} ${String(e.amount)} (${token}), balance ${String(e.balance)}`;
    case 'partitions':
      return `owns outbox partitions ${(e.owned as number[]).join(', ') || 'none'}`;
    case 'relay-recovery':
      return `↻ @OnPartitionRecovery: outbox partition ${String(e.partition)}, ${String(e.holder)} died after publishing ${String(e.lastPublished ?? 'nothing')}`;
    case 'stopped':
      return 'stopped';
    default:
      return undefined; // ticks: one per second, not news
  }
}
