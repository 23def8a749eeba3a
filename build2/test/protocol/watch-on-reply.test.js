/**
 * A watch is registered the moment its reply is read, not a microtask later: the server may send
 * the node's change right behind the reply, in the same TCP segment, and that notification must
 * find the watcher. Driven over an in-memory link, so that both frames arrive in one chunk.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JuteWriter } from '../../src/zookeeper/protocol/jute-writer.js';
import { JuteReader } from '../../src/zookeeper/protocol/jute-reader.js';
import { EventType, Xid } from '../../src/zookeeper/protocol/op-codes.js';
import { ProtocolHandle } from '../../src/zookeeper/protocol/protocol-handle.js';
import { withTimeout } from '../support/wait.js';
function stat(w) {
    return w.long(1n).long(1n).long(0n).long(0n).int(0).int(0).int(0).long(0n).int(0).int(0).long(1n);
}
/** One in-memory server link: the test reads what the client sent and answers by hand. */
function memoryServer() {
    let events;
    const sent = [];
    const dialer = (_address, linkEvents) => {
        events = linkEvents;
        queueMicrotask(() => events.opened());
        return { send: (frame) => void sent.push(frame), close: () => events.closed() };
    };
    return { dialer, sent, deliver: (...frames) => events.data(Buffer.concat(frames)) };
}
describe('ProtocolHandle watches', () => {
    for (const [request, eventType] of [['getData', EventType.nodeDataChanged], ['exists', EventType.nodeDataChanged], ['getChildren', EventType.nodeChildrenChanged]]) {
        it(`delivers a change that arrives in the same chunk as the ${request} reply that set the watch`, async () => {
            const server = memoryServer();
            let connected;
            const ready = new Promise((resolve) => (connected = resolve));
            const handle = new ProtocolHandle({ connectString: '127.0.0.1:1', sessionTimeoutMs: 10_000, dialer: server.dialer }, { onConnected: () => connected(), onConnecting() { }, onClosed() { } });
            try {
                await withTimeout(new Promise((resolve) => setTimeout(resolve, 0)), 1000);
                server.deliver(new JuteWriter().int(0).int(10_000).long(0x42n).buffer(Buffer.alloc(16, 7)).bool(false).frame());
                await withTimeout(ready, 1000, 'no session');
                const events = [];
                const reply = request === 'getData'
                    ? handle.getData('/n', (e) => events.push(e))
                    : request === 'exists'
                        ? handle.exists('/n', (e) => events.push(e))
                        : handle.getChildren('/n', (e) => events.push(e));
                const frame = server.sent.at(-1);
                const xid = new JuteReader(frame.subarray(4), 'request').int();
                const body = request === 'getData' ? stat(new JuteWriter().int(xid).long(5n).int(0).buffer(Buffer.from('x'))) : request === 'exists' ? stat(new JuteWriter().int(xid).long(5n).int(0)) : stat(new JuteWriter().int(xid).long(5n).int(0).int(0));
                const notification = new JuteWriter().int(Xid.notification).long(6n).int(0).int(eventType).int(3).ustring('/n');
                server.deliver(body.frame(), notification.frame());
                await withTimeout(reply, 1000, 'no reply');
                assert.equal(events.length, 1, 'the watcher fired for the change behind its reply');
                assert.equal(handle.watcherCount, 0);
            }
            finally {
                handle.close();
            }
        });
    }
});
//# sourceMappingURL=watch-on-reply.test.js.map