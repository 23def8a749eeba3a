/**
 * The example app's partitioned outbox relay (examples/app/outbox.relay.ts), end to end: two
 * replicas as child processes on the shared server, each owning some of the 8 partitions; every
 * transfer's message is published once, by whichever replica owns its partition; after one replica
 * is SIGKILLed, the other takes its partitions over (once its session expired) and publishes the
 * messages left pending there.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { OUTBOX_PARTITIONS } from '../../examples/app/outbox.js';
import { sharedConnect, testRoot } from '../lock/lock-test-kit.js';
import { waitFor } from '../support/wait.js';
import { freePorts } from '../support/zk-server.js';

const APP_MAIN = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'examples', 'app', 'main.js');
const SESSION_TIMEOUT_MS = 2000;

interface AppEvent {
  readonly replica: string;
  readonly ev: string;
  readonly [field: string]: unknown;
}

describe('the example app: the partitioned outbox relay', () => {
  const ledgerDir = fs.mkdtempSync(path.join(os.tmpdir(), 'outbox-relay-'));
  const events: AppEvent[] = [];
  const children: ChildProcess[] = [];
  after(() => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    fs.rmSync(ledgerDir, { recursive: true, force: true });
  });

  const start = (replica: string, port: number, root: string) => {
    const args = ['--connect', sharedConnect(), '--replica', replica, '--port', String(port), '--root', root, '--session-timeout', String(SESSION_TIMEOUT_MS), '--ledger-dir', ledgerDir, '--step-ms', '20', '--events', 'stdout'];
    const child = spawn(process.execPath, [APP_MAIN, ...args], { stdio: ['ignore', 'pipe', 'ignore'] });
    children.push(child);
    let pending = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop()!;
      for (const line of lines) if (line.startsWith('{')) events.push(JSON.parse(line) as AppEvent);
    });
    return child;
  };
  const owned = (replica: string) => ([...events].reverse().find((e) => e.replica === replica && e.ev === 'partitions')?.owned ?? []) as number[];
  const published = () =>
    Array.from({ length: OUTBOX_PARTITIONS }, (_, k) => path.join(ledgerDir, 'outbox', String(k)))
      .filter((dir) => fs.existsSync(dir))
      .flatMap((dir) => fs.readdirSync(dir).filter((name) => name.startsWith('published-')));
  const transfer = async (port: number, account: string) => {
    const response = await fetch(`http://127.0.0.1:${port}/transfers`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ account, amount: 1 }) });
    assert.equal(response.status, 200, await response.text());
  };

  it('publishes every message once, from the replica that owns its partition, and after a crash from the survivor', { timeout: 60_000 }, async () => {
    const root = testRoot();
    const [portA, portB] = await freePorts(2);
    const a = start('relay-a', portA!, root);
    start('relay-b', portB!, root);
    await waitFor(() => owned('relay-a').length + owned('relay-b').length === OUTBOX_PARTITIONS && owned('relay-a').length > 0 && owned('relay-b').length > 0, {
      timeoutMs: 20_000,
      message: 'the 8 partitions spread over both replicas',
    });
    assert.equal(new Set([...owned('relay-a'), ...owned('relay-b')]).size, OUTBOX_PARTITIONS, 'each partition owned by one replica');

    const accounts = Array.from({ length: 12 }, (_, i) => `acct-${i}`);
    for (const account of accounts) await transfer(portB!, account);
    // The files say what was published; the events (read from the replicas' pipes) who published it.
    const relayedCount = () => events.filter((e) => e.ev === 'relayed').length;
    await waitFor(() => published().length === accounts.length && relayedCount() === accounts.length, { timeoutMs: 10_000, message: `${accounts.length} messages published, each relayed once` });
    const relayed = events.filter((e) => e.ev === 'relayed');
    assert.equal(new Set(relayed.map((e) => e.message)).size, accounts.length, 'each message relayed once');
    for (const e of relayed) assert.ok(owned(e.replica).includes(Number(e.partition)), `${e.replica} relayed partition ${String(e.partition)}, which it owns`);

    // A crash: relay-a's partitions go to relay-b once its session expired; their messages go out then.
    a.kill('SIGKILL');
    for (const account of accounts) await transfer(portB!, account);
    await waitFor(() => owned('relay-b').length === OUTBOX_PARTITIONS, { timeoutMs: 20_000, message: 'relay-b owns every partition' });
    await waitFor(() => published().length === 2 * accounts.length && relayedCount() === 2 * accounts.length, { timeoutMs: 10_000, message: `${2 * accounts.length} messages published, each relayed once` });
    const after = events.filter((e) => e.ev === 'relayed').slice(accounts.length);
    assert.ok(after.every((e) => e.replica === 'relay-b'), 'after the crash, only the survivor publishes');
  });
});
