/**
 * The loss clock measures from the last moment the server certainly heard the session. For the
 * connection itself that is the send time of the handshake, which the C client does not expose: the
 * start of the connection attempt is the latest moment known to precede it. Taking "now" when the
 * `connect` event is handled instead is late by however long this process stalled after the server
 * had answered, and makes every deadline measured from it late by as much.
 *
 * The stall is real: a relay in front of the server blocks this process's event loop right after
 * passing the handshake on, so the server's answer waits until the loop runs again.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { describe, it } from 'node:test';
import { ZooKeeperHandle } from '../../src/zookeeper/zookeeper-handle.js';
import { withTimeout } from '../support/wait.js';
import { firstHostPort, sharedConnectString } from '../fixtures/session-helpers.js';
/** Relays one connection to the server; blocks the event loop for `stallMs` after relaying the client's first bytes. */
async function stallingRelay(stallMs) {
    const { host, port } = firstHostPort(sharedConnectString());
    let handshakeSentAt;
    const sockets = new Set();
    const server = net.createServer((client) => {
        const upstream = net.connect({ host, port });
        sockets.add(client).add(upstream);
        client.on('data', (chunk) => {
            upstream.write(chunk);
            if (handshakeSentAt !== undefined)
                return;
            handshakeSentAt = performance.now();
            const until = handshakeSentAt + stallMs;
            while (performance.now() < until)
                ; // the process stalls: nothing of ours runs meanwhile
        });
        upstream.on('data', (chunk) => client.write(chunk));
        for (const socket of [client, upstream])
            socket.on('error', () => undefined).on('close', () => { client.destroy(); upstream.destroy(); });
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
        port: server.address().port,
        handshakeSentAt: () => handshakeSentAt,
        close() {
            for (const socket of sockets)
                socket.destroy();
            server.close();
        },
    };
}
describe('Last contact at connection', () => {
    it('is no later than the handshake, however long the process stalled before handling the answer', async () => {
        const relay = await stallingRelay(500);
        let client;
        try {
            const connected = new Promise((resolve) => {
                client = new ZooKeeperHandle({ connectString: `127.0.0.1:${relay.port}`, sessionTimeoutMs: 2000 }, { onConnected: resolve, onConnecting() { }, onClosed() { } });
            });
            await withTimeout(connected, 10_000, 'no connection through the relay');
            const sentAt = relay.handshakeSentAt();
            assert.ok(sentAt !== undefined, 'the handshake went through the relay');
            assert.ok(client.lastContactAt > 0);
            assert.ok(client.lastContactAt <= sentAt, `last contact ${client.lastContactAt.toFixed(1)} is after the handshake was sent (${sentAt.toFixed(1)})`);
        }
        finally {
            client?.close();
            relay.close();
        }
    });
});
//# sourceMappingURL=handshake-stall.test.js.map