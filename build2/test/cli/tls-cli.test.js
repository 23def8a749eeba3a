/**
 * `nestjs-zk-lock inspect` over TLS (--tls-ca, --tls-cert, --tls-key) against the harness's TLS
 * ZooKeeper with clientAuth 'need': it reads a lock that a session with alice's certificate
 * holds, behind an x509 ACL that only alice's certificate passes; without a certificate the
 * server refuses it at once (exit 1, TlsHandshakeError); unreadable files and flags that do not go
 * together exit 2 naming the flag.
 * Budget: one TLS server, a holder session and a few short CLI runs.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { LockClient } from '../../src/recipes/lock/lock-client.js';
import { ZkSession } from '../../src/zookeeper/supervised-session.js';
import { ZK_PERMS } from '../../src/zookeeper/types.js';
import { randomRoot } from '../fixtures/session-helpers.js';
import { testCerts } from '../support/tls-certs.js';
import { withTimeout } from '../support/wait.js';
import { ZkServer } from '../support/zk-server.js';
import { runCli } from './cli-runner.js';
/** Far above what a refused handshake takes: only the fast refusal ends a run in time. */
const CONNECT_TIMEOUT = '60000';
describe('nestjs-zk-lock inspect over TLS', () => {
    const root = randomRoot();
    let certs;
    let zk;
    let holder;
    let lease;
    before(async () => {
        certs = await testCerts();
        zk = await ZkServer.start({ tls: { clientAuth: 'need', certs } });
        holder = new ZkSession({
            connectString: zk.secureConnectString,
            sessionTimeoutMs: 4000,
            connectTimeoutMs: 15_000,
            tls: { ca: certs.ca.cert, cert: certs.alice.cert, key: certs.alice.key },
            acl: { root, acl: [{ perms: ZK_PERMS.ALL, scheme: 'x509', id: certs.alice.dn }] },
        });
        await withTimeout(holder.connect(), 15_000, 'holder connected over TLS');
        lease = await new LockClient(holder, { root, identity: 'tls-holder' }).acquire('invoice:7');
    });
    after(async () => {
        await lease?.release().catch(() => undefined);
        holder?.close();
        await zk?.dispose();
    });
    const tlsFlags = (identity = certs.alice) => ['--tls-ca', certs.ca.certFile, '--tls-cert', identity.certFile, '--tls-key', identity.keyFile];
    const inspectArgs = () => ['inspect', '--connect', zk.secureConnectString, '--root', root, '--connect-timeout', CONNECT_TIMEOUT, '--json'];
    it('inspects a lock with --tls-ca, --tls-cert and --tls-key, through an x509 ACL', async () => {
        const run = await runCli([...inspectArgs(), ...tlsFlags()], 20_000);
        assert.equal(run.code, 0, run.stderr);
        const inspection = JSON.parse(run.stdout);
        assert.deepEqual(inspection.locks.map((lock) => lock.name), ['invoice:7']);
        assert.equal(inspection.locks[0].holder.identity, 'tls-holder');
        assert.equal(inspection.locks[0].holder.sessionId, holder.sessionId);
        const explicit = await runCli([...inspectArgs(), ...tlsFlags(), '--driver', 'typescript'], 20_000);
        assert.equal(explicit.code, 0, explicit.stderr);
    });
    it("with bob's certificate the x509 ACL refuses the reading (NOAUTH)", async () => {
        const run = await runCli([...inspectArgs(), ...tlsFlags(certs.bob)], 20_000);
        assert.equal(run.code, 1, run.stderr);
        assert.match(run.stderr, /NOAUTH/);
    });
    it('exits 1 at once when the server refuses the handshake (no certificate), or we refuse its (wrong CA)', async () => {
        const noCert = await runCli([...inspectArgs(), '--tls-ca', certs.ca.certFile], 20_000);
        assert.equal(noCert.code, 1, noCert.stderr);
        assert.match(noCert.stderr, /the server refused it \(ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE/);
        const wrongCa = await runCli([...inspectArgs(), '--tls-ca', certs.wrongCa.certFile, '--tls-cert', certs.alice.certFile, '--tls-key', certs.alice.keyFile], 20_000);
        assert.equal(wrongCa.code, 1, wrongCa.stderr);
        assert.match(wrongCa.stderr, /we refused the server's certificate \(UNABLE_TO_VERIFY_LEAF_SIGNATURE/);
    });
    it('exits 2 naming the flag for an unreadable file, a certificate without its key, or TLS with the native driver', async () => {
        const missing = path.join(certs.dir, 'no-such-file.pem');
        const cases = [
            [['--tls-ca', missing], new RegExp(`--tls-ca: cannot read ${missing.replace(/[.]/g, '\\.')}: ENOENT`)],
            [['--tls-ca', certs.ca.certFile, '--tls-cert', certs.alice.certFile, '--tls-key', missing], /--tls-key: cannot read .*ENOENT/],
            [['--tls-ca', certs.dir], /--tls-ca: cannot read .*EISDIR/],
            [['--tls-ca', certs.ca.certFile, '--tls-cert', certs.alice.certFile], /--tls-cert needs --tls-key/],
            [['--tls-key', certs.alice.keyFile], /--tls-key needs --tls-cert/],
            [['--driver', 'native', ...tlsFlags()], /--driver: the 'native' driver .* cannot speak TLS/],
            [['--driver', 'java'], /--driver: expected one of 'typescript', 'native', got "java"/],
        ];
        for (const [flags, message] of cases) {
            const run = await runCli([...inspectArgs(), ...flags]);
            assert.equal(run.code, 2, `${flags.join(' ')}: ${run.stderr}`);
            assert.match(run.stderr, message, flags.join(' '));
            assert.equal(run.stdout, '');
        }
    });
});
//# sourceMappingURL=tls-cli.test.js.map