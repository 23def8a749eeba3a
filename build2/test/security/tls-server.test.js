/**
 * The harness's TLS ZooKeeper (`ZkServer.start({ tls })`, test/support/zk-tls-config.ts), proved
 * with `node:tls` alone: a hand-encoded ConnectRequest over TLS gets a ConnectResponse from a
 * client the server accepts, and nothing from one it refuses. No ZooKeeper client involved.
 * Budget: three servers (one restarted) and fifteen handshakes; every wait is bounded.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import tls from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { testCerts } from '../support/tls-certs.js';
import { waitFor, withTimeout } from '../support/wait.js';
import { ZkServer } from '../support/zk-server.js';
const SESSION_TIMEOUT_MS = 10_000;
/** ConnectRequest (zookeeper.jute), length-prefixed: a new session, no password. */
function connectRequest() {
    const body = Buffer.alloc(4 + 8 + 4 + 8 + 4 + 16 + 1);
    let at = body.writeInt32BE(0, 0); // protocolVersion
    at = body.writeBigInt64BE(0n, at); // lastZxidSeen
    at = body.writeInt32BE(SESSION_TIMEOUT_MS, at); // timeOut
    at = body.writeBigInt64BE(0n, at); // sessionId: 0 asks for a new session
    at = body.writeInt32BE(16, at); // passwd: buffer of 16 zero bytes
    body.writeUInt8(0, at + 16); // readOnly = false (after the jute record, as the Java client sends it)
    const length = Buffer.alloc(4);
    length.writeInt32BE(body.length);
    return Buffer.concat([length, body]);
}
/** ConnectResponse (zookeeper.jute) from one whole frame; the server appends a readOnly byte. */
function parseConnectResponse(frame) {
    return {
        protocolVersion: frame.readInt32BE(0),
        timeOut: frame.readInt32BE(4),
        sessionId: frame.readBigInt64BE(8),
        passwdLength: frame.readInt32BE(16),
    };
}
/**
 * Connects to the secure port, sends a ConnectRequest once the handshake is done, and settles on
 * the first of: a whole ConnectResponse frame, the socket closing, or `timeoutMs` (a failure).
 */
function attempt(server, options, timeoutMs = 10_000) {
    const socket = tls.connect({ host: '127.0.0.1', port: server.securePort, ...options });
    const result = { handshake: false };
    let received = Buffer.alloc(0);
    const settled = new Promise((resolve) => {
        socket.on('secureConnect', () => { result.handshake = true; socket.write(connectRequest()); });
        socket.on('data', (chunk) => {
            received = Buffer.concat([received, chunk]);
            if (received.length >= 4 && received.length >= 4 + received.readInt32BE(0)) {
                result.response = parseConnectResponse(received.subarray(4, 4 + received.readInt32BE(0)));
                resolve(result);
            }
        });
        socket.on('error', (error) => { result.errorCode ??= error.code; });
        socket.on('close', () => resolve(result));
    });
    return withTimeout(settled, timeoutMs, `no ConnectResponse and no close from ${server.secureConnectString} within ${timeoutMs} ms`)
        .finally(() => socket.destroy());
}
/** `tls.connect` options of a client that trusts the test CA and shows `identity` (or no certificate). */
function client(certs, identity) {
    return { ca: certs.ca.cert, ...(identity && { cert: identity.cert, key: identity.key }) };
}
function assertSession(outcome) {
    assert.equal(outcome.handshake, true, `handshake failed: ${outcome.errorCode}`);
    assert.ok(outcome.response, `no ConnectResponse (error ${outcome.errorCode})`);
    assert.equal(outcome.response.protocolVersion, 0);
    assert.equal(outcome.response.timeOut, SESSION_TIMEOUT_MS);
    assert.notEqual(outcome.response.sessionId, 0n);
    assert.equal(outcome.response.passwdLength, 16);
}
/** The server's count of refused TLS clients (failed handshakes and failed x509 authentication). */
async function authFailures(server) {
    return Number((await server.mntr()).zk_auth_failed_count);
}
describe('ZkServer with tls, clientAuth need', () => {
    let certs;
    let zk;
    before(async () => {
        certs = await testCerts();
        zk = await ZkServer.start({ tls: { clientAuth: 'need', certs } });
    });
    after(async () => { await zk?.dispose(); });
    it('serves TLS on its own port and keeps the plain port for 4lw', async () => {
        assert.match(zk.secureConnectString, /^127\.0\.0\.1:\d+$/);
        assert.notEqual(zk.securePort, zk.port);
        assert.equal(await zk.fourLetter('ruok'), 'imok');
    });
    it('gives a client with a certificate from the CA a session, named by its subject DN for x509 ACLs', async () => {
        assertSession(await attempt(zk, client(certs, certs.alice)));
        assertSession(await attempt(zk, client(certs, certs.bob)));
        const log = await waitFor(() => {
            const text = fs.readFileSync(zk.logFile, 'utf8');
            return text.includes(`Authenticated Id '${certs.bob.dn}' for Scheme 'x509'`) ? text : undefined;
        }, { message: `x509 ids in ${zk.logFile}` });
        assert.match(log, new RegExp(`Authenticated Id '${certs.alice.dn}' for Scheme 'x509'`));
    });
    it('refuses a client without a certificate: no ConnectResponse', async () => {
        const before = await authFailures(zk);
        const outcome = await attempt(zk, client(certs));
        assert.equal(outcome.response, undefined);
        assert.ok(outcome.errorCode, 'the socket closed without an error');
        assert.equal(await waitFor(async () => (await authFailures(zk)) === before + 1 && before + 1, { message: 'auth failure counted' }), before + 1);
    });
    it('refuses a client whose certificate another CA signed: no ConnectResponse', async () => {
        const before = await authFailures(zk);
        const outcome = await attempt(zk, client(certs, certs.mallory));
        assert.equal(outcome.response, undefined);
        assert.ok(outcome.errorCode, 'the socket closed without an error');
        assert.equal(await waitFor(async () => (await authFailures(zk)) === before + 1 && before + 1, { message: 'auth failure counted' }), before + 1);
    });
    it('is refused by a client that does not trust its CA (our own verification fails)', async () => {
        const outcome = await attempt(zk, { ca: certs.wrongCa.cert, cert: certs.alice.cert, key: certs.alice.key });
        assert.equal(outcome.handshake, false);
        assert.equal(outcome.response, undefined);
        // The server sends its certificate alone (not the CA), so the leaf's issuer is what we miss.
        assert.equal(outcome.errorCode, 'UNABLE_TO_VERIFY_LEAF_SIGNATURE');
    });
});
describe('ZkServer with tls, clientAuth want', () => {
    let certs;
    let zk;
    before(async () => {
        certs = await testCerts();
        zk = await ZkServer.start({ tls: { clientAuth: 'want', certs } });
    });
    after(async () => { await zk?.dispose(); });
    it('gives a session to a client without a certificate, and to one with', async () => {
        assertSession(await attempt(zk, client(certs)));
        assertSession(await attempt(zk, client(certs, certs.alice)));
    });
    it('still refuses a certificate from another CA', async () => {
        const outcome = await attempt(zk, client(certs, certs.mallory));
        assert.equal(outcome.response, undefined);
    });
    it('keeps its secure port across restart()', async () => {
        const securePort = zk.securePort;
        await zk.restart();
        assert.equal(zk.securePort, securePort);
        assertSession(await attempt(zk, client(certs, certs.alice)));
    });
});
describe('ZkServer with tls, TLS 1.3', () => {
    let certs;
    let zk;
    before(async () => {
        certs = await testCerts();
        zk = await ZkServer.start({ tls: { clientAuth: 'need', certs, protocol: 'TLSv1.3' } });
    });
    after(async () => { await zk?.dispose(); });
    it('gives a client with a certificate from the CA a session', async () => {
        assertSession(await attempt(zk, { ...client(certs, certs.alice), minVersion: 'TLSv1.3' }));
    });
    it('refuses clients without a good certificate only after their handshake completed', async () => {
        // In TLS 1.3 the client's Finished goes out with its certificate: 'secureConnect' fires, and
        // the server's alert arrives afterwards, as an error on an established socket.
        for (const identity of [undefined, certs.mallory]) {
            const outcome = await attempt(zk, client(certs, identity));
            assert.equal(outcome.handshake, true, identity?.dn ?? 'no certificate');
            assert.equal(outcome.response, undefined, identity?.dn ?? 'no certificate');
            assert.ok(outcome.errorCode, `${identity?.dn ?? 'no certificate'}: the socket closed without an error`);
        }
    });
});
//# sourceMappingURL=tls-server.test.js.map