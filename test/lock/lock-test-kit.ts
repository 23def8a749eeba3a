/**
 * Small helpers shared by the lock tests: sessions on the shared server, queue listings, server
 * watch counters, Nest apps with ZkLockModule, and child-process fixtures.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Module, type DynamicModule, type INestApplicationContext, type Provider, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ZooKeeperError } from '../../src/errors/zookeeper.error.js';
import { LockClient } from '../../src/recipes/lock/lock-client.js';
import { sortQueue } from '../../src/recipes/queue/queue-node.js';
import { LockService } from '../../src/services/lock.service.js';
import { ZkLockModule } from '../../src/zk-lock.module.js';
import type { ZkLockModuleOptions } from '../../src/zk-lock.options.js';
import type { ZkClient } from '../../src/zookeeper/requests.js';
import { ZkSession } from '../../src/zookeeper/supervised-session.js';
import { closeFromSecondClient } from '../support/expire-session.js';
import type { TcpProxy } from '../support/tcp-proxy.js';
import { withTimeout } from '../support/wait.js';
import { fourLetterWord } from '../support/zk-server.js';
import { withTestDriver } from '../support/test-driver.js';

/** The shared server the runner started (`scripts/run-tests.mjs`). */
export function sharedConnect(): string {
  const connect = process.env.ZK_TEST_CONNECT;
  if (!connect) throw new Error('ZK_TEST_CONNECT is not set: run the tests through scripts/run-tests.mjs');
  return connect;
}

/** A fresh root per test, so that tests never see each other's znodes. */
export function testRoot(): string {
  return `/t-${randomUUID()}`;
}

export async function openSession(connectString: string, sessionTimeoutMs = 4000): Promise<ZkSession> {
  const session = new ZkSession(withTestDriver({ connectString, sessionTimeoutMs, connectTimeoutMs: 15_000 }));
  await session.connect();
  return session;
}

/**
 * Makes the server expire `session` now, as if it had timed out: a second handle resumes it with
 * its id and password (taking it over from the original connection) and closes it. The original
 * client must be kept from reconnecting meanwhile (e.g. a refusing TcpProxy), or its reconnection
 * takes the session back before the close arrives.
 */
export async function expireSession(connectString: string, session: ZkSession): Promise<void> {
  await closeFromSecondClient(connectString, session.sessionId!, session.sessionPassword!, session.sessionTimeoutMs);
}

/**
 * `expireSession` for a session that reaches the server through `proxy`: the proxy refuses (and
 * drops what it carries) while the session is expired, so that the original client cannot take
 * the session back from the closing handle.
 */
export async function expireBehindProxy(proxy: TcpProxy, connectString: string, session: ZkSession): Promise<void> {
  proxy.refuse(true);
  proxy.reset();
  try {
    await expireSession(connectString, session);
  } finally {
    proxy.refuse(false);
  }
}

/** Queue node names of a lock dir, in grant order; [] when the dir does not exist. */
export async function queueNodes(client: ZkClient, dir: string): Promise<string[]> {
  try {
    const { children } = await client.getChildren(dir);
    return sortQueue(children, 'lock').map((node) => node.name);
  } catch (error) {
    if (ZooKeeperError.is(error, 'NONODE')) return [];
    throw error;
  }
}

/** The sequence number ZooKeeper appended to a queue node path. */
export function sequenceOf(nodePath: string): number {
  return Number(/-(-?\d+)$/.exec(nodePath)![1]);
}

/** Watch notifications the server has fired so far, of every kind (mntr counters). */
export async function firedWatches(connectString: string): Promise<number> {
  const [host, port] = connectString.split(',')[0]!.split(':');
  const text = await fourLetterWord(host!, Number(port), 'mntr');
  let sum = 0;
  for (const line of text.split('\n')) {
    const [key, value] = line.split('\t');
    if (/^zk_sum_node_(deleted|changed|created|children)_watch_count$/.test(key ?? '')) sum += Number(value);
  }
  return sum;
}

/** A Nest application context with ZkLockModule and the given providers. Close it with `app.close()`. */
export async function startLockApp(options: ZkLockModuleOptions, providers: Provider[], imports: (DynamicModule | Type)[] = []): Promise<INestApplicationContext> {
  @Module({ imports: [ZkLockModule.forRoot(withTestDriver(options)), ...imports], providers })
  class LockTestModule {}
  return NestFactory.createApplicationContext(LockTestModule, { logger: false });
}

/** A suite's lock application on `root` and a plain session beside it (for reads and writes by hand). */
export interface LockAppSuite {
  readonly app: INestApplicationContext;
  readonly locks: LockService;
  readonly observer: ZkSession;
}

/** Registers the suite's `before` and `after` hooks: both are open for its tests and closed after them. */
export function lockAppSuite(root: string, providers: Provider[] = []): LockAppSuite {
  const suite = {} as { app: INestApplicationContext; locks: LockService; observer: ZkSession };
  before(async () => {
    suite.app = await startLockApp({ connect: sharedConnect(), root, sessionTimeoutMs: 4000 }, providers);
    suite.locks = suite.app.get(LockService);
    suite.observer = await openSession(sharedConnect());
  });
  after(async () => {
    await suite.app?.close();
    suite.observer?.close();
  });
  return suite;
}

/** A suite's `LockClient`s, each on its own session (as separate processes would be), and a plain session beside them. */
export interface LockClientsSuite {
  readonly sessions: readonly ZkSession[];
  readonly clients: readonly LockClient[];
  readonly observer: ZkSession;
}

/** Registers the suite's `before` and `after` hooks: `count` clients on `root` (identities `client-<i>`), closed after its tests. */
export function lockClientsSuite(root: string, count: number): LockClientsSuite {
  const suite = {} as { sessions: ZkSession[]; clients: LockClient[]; observer: ZkSession };
  before(async () => {
    suite.sessions = await Promise.all(Array.from({ length: count }, () => openSession(sharedConnect())));
    suite.clients = suite.sessions.map((session, index) => new LockClient(session, { root, identity: `client-${index}` }));
    suite.observer = await openSession(sharedConnect());
  });
  after(async () => {
    await Promise.all((suite.clients ?? []).map((client) => client.close()));
    for (const session of [...(suite.sessions ?? []), suite.observer]) session?.close();
  });
  return suite;
}

/** A suite's plain observer session, and the sessions its tests open through it. */
export interface ObservedSuite {
  readonly observer: ZkSession;
  /** A new session on the shared server, closed after the suite's tests. */
  open(): Promise<ZkSession>;
}

/** Registers the suite's `before` and `after` hooks: the observer opens before its tests; every session closes after them. */
export function observedSuite(): ObservedSuite {
  const sessions: ZkSession[] = [];
  const open = async () => {
    const session = await openSession(sharedConnect());
    sessions.push(session);
    return session;
  };
  const suite = { open } as { observer: ZkSession; open: () => Promise<ZkSession> };
  before(async () => {
    suite.observer = await open();
  });
  after(() => sessions.forEach((session) => session.close()));
  return suite;
}

const here = path.dirname(fileURLToPath(import.meta.url));

/** A compiled fixture (`build/test/fixtures/<name>.js`) as a child process with IPC; its output is kept for failure messages. */
export class Fixture {
  readonly child: ChildProcess;
  readonly output: string[] = [];
  private readonly messages: Record<string, unknown>[] = [];
  private readonly waiters = new Set<() => void>();
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(
    name: string,
    readonly env: Record<string, string>,
  ) {
    this.child = fork(path.join(here, '..', 'fixtures', `${name}.js`), [], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    const keep = (chunk: Buffer) => this.output.push(chunk.toString());
    this.child.stdout!.on('data', keep);
    this.child.stderr!.on('data', keep);
    this.child.on('message', (message) => {
      this.messages.push(message as Record<string, unknown>);
      for (const wake of [...this.waiters]) wake();
    });
    this.exited = new Promise((resolve) => this.child.once('exit', (code, signal) => {
      for (const wake of [...this.waiters]) wake();
      resolve({ code, signal });
    }));
  }

  get pid(): number {
    return this.child.pid!;
  }

  send(message: Record<string, unknown>): void {
    this.child.send(message);
  }

  /** The first message of `type` (already received or next), bounded. */
  message<T extends Record<string, unknown>>(type: string, timeoutMs = 15_000): Promise<T> {
    return this.messageFrom(0, type, timeoutMs);
  }

  /** The next message of `type` to arrive from now on, bounded. */
  nextMessage<T extends Record<string, unknown>>(type: string, timeoutMs = 15_000): Promise<T> {
    return this.messageFrom(this.messages.length, type, timeoutMs);
  }

  private messageFrom<T extends Record<string, unknown>>(start: number, type: string, timeoutMs: number): Promise<T> {
    const found = () => this.messages.slice(start).find((message) => message.type === type) as T | undefined;
    const wait = new Promise<T>((resolve, reject) => {
      const check = () => {
        const message = found();
        if (message) { this.waiters.delete(check); resolve(message); }
        else if (this.child.exitCode !== null || this.child.signalCode !== null) {
          this.waiters.delete(check);
          reject(new Error(`fixture exited before sending "${type}"\n${this.output.join('')}`));
        }
      };
      this.waiters.add(check);
      check();
    });
    return withTimeout(wait, timeoutMs, `no "${type}" from the fixture within ${timeoutMs} ms\n${this.output.join('')}`);
  }

  /** Kills it (SIGKILL, also when stopped) and waits for the exit. */
  async kill(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    await withTimeout(this.exited, 10_000, 'fixture did not exit after SIGKILL');
  }
}
