var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
/**
 * TLS and mTLS through the library, on the harness's TLS ZooKeeper (clientAuth 'need', TLS 1.2):
 * a lock and an election of `ZkLockModule` with `tls: { ca, cert, key }`; an `x509` ACL that
 * shuts a second certificate out (NOAUTH) and the identity the server gives each certificate
 * (`whoAmI`); and start-up refused at once with `TlsHandshakeError`, by our side (a CA that did
 * not sign the server) or by the server's (no certificate, one from another CA). Every wait is
 * bounded below the connect timeout, so only the fast refusal can pass.
 * Budget: one TLS server, about ten sessions.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { NestFactory } from '@nestjs/core';
import { Module } from '@nestjs/common';
import { filter, firstValueFrom } from 'rxjs';
import { InvalidOptionsError } from '../../src/errors/invalid-options.error.js';
import { TlsHandshakeError } from '../../src/errors/tls-handshake.error.js';
import { ZooKeeperError } from '../../src/errors/zookeeper.error.js';
import { znodePaths } from '../../src/recipes/znode-paths.js';
import { LeaderService } from '../../src/services/leader.service.js';
import { LockService } from '../../src/services/lock.service.js';
import { ZkLockModule } from '../../src/zk-lock.module.js';
import { resolveZkLockOptions } from '../../src/zk-lock.options-validator.js';
import { ProtocolHandle } from '../../src/zookeeper/protocol/protocol-handle.js';
import { ZkSession } from '../../src/zookeeper/supervised-session.js';
import { OPEN_ACL_UNSAFE, ZK_PERMS } from '../../src/zookeeper/types.js';
import { testRoot } from '../lock/lock-test-kit.js';
import { testCerts } from '../support/tls-certs.js';
import { withTimeout } from '../support/wait.js';
import { ZkServer } from '../support/zk-server.js';
/** Large on purpose: a refusal must end start-up at once, never by this timeout. */
const CONNECT_TIMEOUT_MS = 60_000;
/** What a test waits for a refused start-up: far below CONNECT_TIMEOUT_MS. */
const REFUSAL_BOUND_MS = 15_000;
let certs;
let zk;
const apps = [];
const sessions = [];
before(async () => {
    certs = await testCerts();
    zk = await ZkServer.start({ tls: { clientAuth: 'need', certs } });
});
after(async () => {
    for (const app of apps)
        await withTimeout(app.close(), 10_000, 'app.close()');
    for (const session of sessions)
        session.close();
    await zk?.dispose();
});
/** `tls` of a client that trusts the test CA and shows `identity` (or no certificate). */
function tlsAs(identity, ca = certs.ca.cert) {
    return { ca, ...(identity && { cert: identity.cert, key: identity.key }) };
}
/** A Nest application context with ZkLockModule over TLS; rejects when start-up fails. */
async function startApp(options) {
    let TlsAppModule = class TlsAppModule {
    };
    TlsAppModule = __decorate([
        Module({ imports: [ZkLockModule.forRoot({ connect: zk.secureConnectString, sessionTimeoutMs: 4000, connectTimeoutMs: CONNECT_TIMEOUT_MS, drainTimeoutMs: 500, ...options })] })
    ], TlsAppModule);
    const app = await NestFactory.createApplicationContext(TlsAppModule, { logger: false, abortOnError: false });
    apps.push(app);
    return app;
}
async function openSession(tls) {
    const session = new ZkSession({ connectString: zk.secureConnectString, sessionTimeoutMs: 4000, connectTimeoutMs: CONNECT_TIMEOUT_MS, tls });
    sessions.push(session);
    await withTimeout(session.connect(), REFUSAL_BOUND_MS, 'ZkSession.connect() over TLS');
    return session;
}
/** A bare `ProtocolHandle` over TLS, for `whoAmI` (which `ZkSession` does not offer). */
async function openHandle(tls) {
    let connected;
    const ready = new Promise((resolve) => (connected = resolve));
    const handle = new ProtocolHandle({ connectString: zk.secureConnectString, sessionTimeoutMs: 4000, tls }, {
        onConnected: () => connected(),
        onConnecting: () => undefined,
        onClosed: () => undefined,
    });
    try {
        await withTimeout(ready, REFUSAL_BOUND_MS, 'ProtocolHandle connected over TLS');
    }
    catch (error) {
        handle.close();
        throw error;
    }
    return handle;
}
/** Rejects with `TlsHandshakeError` refused by `side`, whose message names `code`. */
async function refusedTls(start, side, code, what) {
    await assert.rejects(withTimeout(start, REFUSAL_BOUND_MS, `${what}: not refused within ${REFUSAL_BOUND_MS} ms`), (error) => {
        assert.ok(error instanceof TlsHandshakeError, `${what}: expected TlsHandshakeError, got ${String(error)}`);
        assert.equal(error.refusedBy, side, `${what}: ${error.message}`);
        assert.equal(error.server, zk.secureConnectString);
        assert.match(error.message, code, what);
        // One line that says what happened, not OpenSSL's error queue with its source file and line.
        assert.doesNotMatch(error.message, /\n|rec_layer|\.c:\d/, `${what}: ${JSON.stringify(error.message)}`);
        return true;
    });
}
async function noAuth(request, what) {
    await assert.rejects(request, (error) => ZooKeeperError.is(error, 'NOAUTH'), `${what} should be refused with NOAUTH`);
}
describe('ZkLockModule over TLS, clientAuth need', () => {
    it('locks and elects a leader with tls: { ca, cert, key }', async () => {
        const root = testRoot();
        const app = await startApp({ root, tls: tlsAs(certs.alice), election: { name: 'tls' } });
        const leaders = app.get(LeaderService);
        const elected = await withTimeout(firstValueFrom(leaders.isLeader$.pipe(filter(Boolean))), 10_000, 'isLeader$ true');
        assert.equal(elected, true);
        const seen = await app.get(LockService).withLock('tls-lock', async (lease) => {
            assert.equal(lease.signal.aborted, false);
            return (await app.get(ZkSession).getChildren(`${root}/locks/tls-lock`)).children.length;
        });
        assert.equal(seen, 1, 'one queue node while held');
        assert.deepEqual((await app.get(ZkSession).getChildren(`${root}/locks/tls-lock`)).children, [], 'released');
    });
    it("an x509 ACL keeps bob's certificate out of alice's nodes; whoAmI names each certificate", async () => {
        const root = testRoot();
        const acl = [{ perms: ZK_PERMS.ALL, scheme: 'x509', id: certs.alice.dn }];
        const app = await startApp({ root, tls: tlsAs(certs.alice), acl, election: { name: 'sec' } });
        await withTimeout(firstValueFrom(app.get(LeaderService).isLeader$.pipe(filter(Boolean))), 10_000, 'isLeader$ true');
        const own = app.get(ZkSession);
        const bob = await openSession(tlsAs(certs.bob));
        const lockDir = `${root}/locks/account`;
        const electionDir = `${root}/elections/sec`;
        await app.get(LockService).withLock('account', async (lock) => {
            await lock.checkpoint({ step: 1 }); // the ready znode now exists
            const [queueNode] = (await own.getChildren(lockDir)).children.filter((name) => name.startsWith('_c_'));
            const [electionNode] = (await own.getChildren(electionDir)).children;
            assert.ok(queueNode && electionNode);
            for (const path of [root, lockDir, `${lockDir}/${queueNode}`, znodePaths.ready(lockDir), electionDir, `${electionDir}/${electionNode}`]) {
                assert.deepEqual((await own.getAcl(path)).acl, acl, `ACL of ${path}`);
            }
            await noAuth(bob.delete(`${lockDir}/${queueNode}`, -1), "bob deleting alice's queue node");
            await noAuth(bob.setData(znodePaths.ready(lockDir), Buffer.from('{}'), -1), 'bob overwriting the ready znode');
            await noAuth(bob.delete(`${electionDir}/${electionNode}`, -1), "bob deleting the leader's node");
            await noAuth(bob.setAcl(root, OPEN_ACL_UNSAFE, -1), 'bob opening the root');
            await noAuth(bob.create(`${lockDir}/_c_x-lock-`, null, 'ephemeral_sequential'), 'bob queueing');
            assert.equal(lock.signal.aborted, false, 'alice kept her lock');
        }, { recover: () => undefined });
        for (const identity of [certs.alice, certs.bob]) {
            const handle = await openHandle(tlsAs(identity));
            try {
                const ids = await withTimeout(handle.whoAmI(), 10_000, 'whoAmI');
                assert.ok(ids.some((id) => id.scheme === 'x509' && id.user === identity.dn), `${identity.dn}: ${JSON.stringify(ids)}`);
            }
            finally {
                handle.close();
            }
        }
    });
});
describe('TLS refused at start-up: TlsHandshakeError at once', () => {
    it('by us, when our ca did not sign the server certificate (app start-up and ZkSession.connect)', async () => {
        const tls = tlsAs(certs.alice, certs.wrongCa.cert);
        await refusedTls(startApp({ root: testRoot(), tls }), 'client', /UNABLE_TO_VERIFY_LEAF_SIGNATURE/, 'module start-up trusting the wrong CA');
        await refusedTls(openSession(tls), 'client', /UNABLE_TO_VERIFY_LEAF_SIGNATURE/, 'ZkSession.connect() trusting the wrong CA');
    });
    it('by us, when the server certificate does not name the server we asked for', async () => {
        // The certificate covers 127.0.0.1 and localhost; SNI and the name check ask for another name.
        const tls = { ...tlsAs(certs.alice), servername: 'zk.example' };
        await refusedTls(openSession(tls), 'client', /ERR_TLS_CERT_ALTNAME_INVALID/, 'ZkSession.connect() to a server named otherwise');
    });
    it('by the server, when we show no certificate', async () => {
        await refusedTls(startApp({ root: testRoot(), tls: tlsAs(undefined) }), 'server', /ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE.*bad certificate/, 'module start-up without a certificate');
        await refusedTls(openSession(tlsAs(undefined)), 'server', /ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE.*bad certificate/, 'ZkSession.connect() without a certificate');
    });
    it("by the server, when another CA signed our certificate (mallory's)", async () => {
        await refusedTls(startApp({ root: testRoot(), tls: tlsAs(certs.mallory) }), 'server', /ERR_SSL_SSLV3_ALERT_CERTIFICATE_UNKNOWN.*certificate unknown/, "module start-up with mallory's certificate");
        await refusedTls(openSession(tlsAs(certs.mallory)), 'server', /ERR_SSL_SSLV3_ALERT_CERTIFICATE_UNKNOWN.*certificate unknown/, "ZkSession.connect() with mallory's certificate");
    });
});
describe("tls with driver 'native'", () => {
    it('is refused with InvalidOptionsError naming tls, by the options and by start-up', async () => {
        const isTlsOption = (error) => error instanceof InvalidOptionsError && error.field === 'tls' && /native/.test(error.message);
        assert.throws(() => resolveZkLockOptions({ connect: zk.secureConnectString, driver: 'native', tls: tlsAs(certs.alice) }), isTlsOption);
        await assert.rejects(withTimeout(startApp({ root: testRoot(), driver: 'native', tls: tlsAs(certs.alice) }), REFUSAL_BOUND_MS), isTlsOption);
    });
});
//# sourceMappingURL=tls.test.js.map