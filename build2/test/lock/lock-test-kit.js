var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
/**
 * Small helpers shared by the lock tests: sessions on the shared server, queue listings, server
 * watch counters, Nest apps with ZkLockModule, and child-process fixtures.
 */
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ZooKeeperError } from '../../src/errors/zookeeper.error.js';
import { LockClient } from '../../src/recipes/lock/lock-client.js';
import { sortQueue } from '../../src/recipes/queue/queue-node.js';
import { LockService } from '../../src/services/lock.service.js';
import { ZkLockModule } from '../../src/zk-lock.module.js';
import { ZkSession } from '../../src/zookeeper/supervised-session.js';
import { closeFromSecondClient } from '../support/expire-session.js';
import { withTimeout } from '../support/wait.js';
import { fourLetterWord } from '../support/zk-server.js';
/** The shared server the runner started (`scripts/run-tests.mjs`). */
export function sharedConnect() {
    const connect = process.env.ZK_TEST_CONNECT;
    if (!connect)
        throw new Error('ZK_TEST_CONNECT is not set: run the tests through scripts/run-tests.mjs');
    return connect;
}
/** A fresh root per test, so that tests never see each other's znodes. */
export function testRoot() {
    return `/t-${randomUUID()}`;
}
export async function openSession(connectString, sessionTimeoutMs = 4000) {
    const session = new ZkSession({ connectString, sessionTimeoutMs, connectTimeoutMs: 15_000 });
    await session.connect();
    return session;
}
/**
 * Makes the server expire `session` now, as if it had timed out: a second handle resumes it with
 * its id and password (taking it over from the original connection) and closes it. The original
 * client must be kept from reconnecting meanwhile (e.g. a refusing TcpProxy), or its reconnection
 * takes the session back before the close arrives.
 */
export async function expireSession(connectString, session) {
    await closeFromSecondClient(connectString, session.sessionId, session.sessionPassword, session.sessionTimeoutMs);
}
/**
 * `expireSession` for a session that reaches the server through `proxy`: the proxy refuses (and
 * drops what it carries) while the session is expired, so that the original client cannot take
 * the session back from the closing handle.
 */
export async function expireBehindProxy(proxy, connectString, session) {
    proxy.refuse(true);
    proxy.reset();
    try {
        await expireSession(connectString, session);
    }
    finally {
        proxy.refuse(false);
    }
}
/** Queue node names of a lock dir, in grant order; [] when the dir does not exist. */
export async function queueNodes(client, dir) {
    try {
        const { children } = await client.getChildren(dir);
        return sortQueue(children, 'lock').map((node) => node.name);
    }
    catch (error) {
        if (ZooKeeperError.is(error, 'NONODE'))
            return [];
        throw error;
    }
}
/** The sequence number ZooKeeper appended to a queue node path. */
export function sequenceOf(nodePath) {
    return Number(/-(-?\d+)$/.exec(nodePath)[1]);
}
/** Watch notifications the server has fired so far, of every kind (mntr counters). */
export async function firedWatches(connectString) {
    const [host, port] = connectString.split(',')[0].split(':');
    const text = await fourLetterWord(host, Number(port), 'mntr');
    let sum = 0;
    for (const line of text.split('\n')) {
        const [key, value] = line.split('\t');
        if (/^zk_sum_node_(deleted|changed|created|children)_watch_count$/.test(key ?? ''))
            sum += Number(value);
    }
    return sum;
}
/** A Nest application context with ZkLockModule and the given providers. Close it with `app.close()`. */
export async function startLockApp(options, providers, imports = []) {
    let LockTestModule = class LockTestModule {
    };
    LockTestModule = __decorate([
        Module({ imports: [ZkLockModule.forRoot(options), ...imports], providers })
    ], LockTestModule);
    return NestFactory.createApplicationContext(LockTestModule, { logger: false });
}
/** Registers the suite's `before` and `after` hooks: both are open for its tests and closed after them. */
export function lockAppSuite(root, providers = []) {
    const suite = {};
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
/** Registers the suite's `before` and `after` hooks: `count` clients on `root` (identities `client-<i>`), closed after its tests. */
export function lockClientsSuite(root, count) {
    const suite = {};
    before(async () => {
        suite.sessions = await Promise.all(Array.from({ length: count }, () => openSession(sharedConnect())));
        suite.clients = suite.sessions.map((session, index) => new LockClient(session, { root, identity: `client-${index}` }));
        suite.observer = await openSession(sharedConnect());
    });
    after(async () => {
        await Promise.all((suite.clients ?? []).map((client) => client.close()));
        for (const session of [...(suite.sessions ?? []), suite.observer])
            session?.close();
    });
    return suite;
}
const here = path.dirname(fileURLToPath(import.meta.url));
/** A compiled fixture (`build/test/fixtures/<name>.js`) as a child process with IPC; its output is kept for failure messages. */
export class Fixture {
    constructor(name, env) {
        this.env = env;
        this.output = [];
        this.messages = [];
        this.waiters = new Set();
        this.child = fork(path.join(here, '..', 'fixtures', `${name}.js`), [], {
            env: { ...process.env, ...env },
            stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
        });
        const keep = (chunk) => this.output.push(chunk.toString());
        this.child.stdout.on('data', keep);
        this.child.stderr.on('data', keep);
        this.child.on('message', (message) => {
            this.messages.push(message);
            for (const wake of [...this.waiters])
                wake();
        });
        this.exited = new Promise((resolve) => this.child.once('exit', (code, signal) => {
            for (const wake of [...this.waiters])
                wake();
            resolve({ code, signal });
        }));
    }
    get pid() {
        return this.child.pid;
    }
    send(message) {
        this.child.send(message);
    }
    /** The first message of `type` (already received or next), bounded. */
    message(type, timeoutMs = 15_000) {
        return this.messageFrom(0, type, timeoutMs);
    }
    /** The next message of `type` to arrive from now on, bounded. */
    nextMessage(type, timeoutMs = 15_000) {
        return this.messageFrom(this.messages.length, type, timeoutMs);
    }
    messageFrom(start, type, timeoutMs) {
        const found = () => this.messages.slice(start).find((message) => message.type === type);
        const wait = new Promise((resolve, reject) => {
            const check = () => {
                const message = found();
                if (message) {
                    this.waiters.delete(check);
                    resolve(message);
                }
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
    async kill() {
        if (this.child.exitCode === null && this.child.signalCode === null)
            this.child.kill('SIGKILL');
        await withTimeout(this.exited, 10_000, 'fixture did not exit after SIGKILL');
    }
}
//# sourceMappingURL=lock-test-kit.js.map