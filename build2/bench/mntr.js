/**
 * Server-side counters from the `mntr` four-letter word, as BENCHMARKS.md defines them.
 *
 * ZooKeeper 3.8 has no per-opcode counter, but every finished request lands in exactly one of
 * the read/update latency summaries, whose `cnt_` is a plain counter; the `*_watch_count`
 * summaries add one per watcher a trigger fires, i.e. one per notification sent to a session.
 *
 * The server counts each 4lw connection as one received packet. Only this process talks 4lw
 * to the server during a run, so counting what we send and subtracting it is exact.
 */
import { fourLetterWord } from '../test/support/zk-server.js';
const WATCH_COUNTERS = [
    'zk_sum_node_created_watch_count',
    'zk_sum_node_deleted_watch_count',
    'zk_sum_node_changed_watch_count',
    'zk_sum_node_children_watch_count',
];
export class MntrProbe {
    constructor(host, port) {
        this.host = host;
        this.port = port;
        this.sent = 0;
    }
    static fromConnect(connect) {
        const [host, port] = connect.split(',')[0].split(':');
        return new MntrProbe(host, Number(port));
    }
    /** Any 4lw command, counted for the packet correction. */
    fourLetter(cmd) {
        this.sent++;
        return fourLetterWord(this.host, this.port, cmd, 5000);
    }
    async snapshot() {
        const text = await this.fourLetter('mntr');
        const sent4lw = this.sent;
        const raw = {};
        for (const line of text.split('\n')) {
            const [key, value] = line.split('\t');
            if (!key || value === undefined)
                continue;
            raw[key] = /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
        }
        const num = (key) => {
            const value = raw[key];
            if (typeof value !== 'number')
                throw new Error(`mntr has no numeric ${key} (got ${JSON.stringify(value)})`);
            return value;
        };
        return {
            reads: num('zk_cnt_readlatency'),
            writes: num('zk_cnt_updatelatency'),
            packetsReceived: num('zk_packets_received'),
            watchEvents: WATCH_COUNTERS.reduce((sum, key) => sum + num(key), 0),
            znodes: num('zk_znode_count'),
            watches: num('zk_watch_count'),
            sent4lw,
            raw,
        };
    }
    /** Polls every `intervalMs` until `done(snapshot)`; bounded by `timeoutMs`. */
    async pollUntil(done, what, timeoutMs = 30_000, intervalMs = 10) {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
            const snapshot = await this.snapshot();
            if (done(snapshot))
                return snapshot;
            if (Date.now() > deadline)
                throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
            await new Promise((resolve) => setTimeout(resolve, intervalMs));
        }
    }
    /**
     * "Settle": polls every 10 ms until `zk_watch_count` is unchanged in two consecutive polls,
     * so that every notification of the step before has fired and every new watch is set.
     */
    async settle(timeoutMs = 30_000) {
        let previous = await this.snapshot();
        const deadline = Date.now() + timeoutMs;
        for (;;) {
            await new Promise((resolve) => setTimeout(resolve, 10));
            const next = await this.snapshot();
            if (next.watches === previous.watches)
                return next;
            if (Date.now() > deadline)
                throw new Error(`watch count did not settle within ${timeoutMs} ms`);
            previous = next;
        }
    }
}
/** Counters `a → b`, minus the 4lw packets this process sent after `a` up to and including `b`. */
export function serverDelta(a, b) {
    const reads = b.reads - a.reads;
    const writes = b.writes - a.writes;
    return {
        reads,
        writes,
        requests: reads + writes,
        packets_received: b.packetsReceived - a.packetsReceived - (b.sent4lw - a.sent4lw),
        watch_notifications: b.watchEvents - a.watchEvents,
    };
}
//# sourceMappingURL=mntr.js.map