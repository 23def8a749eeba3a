import { withTimeout } from '../support/wait.js';
/** How long a client event is waited for (virtual ms on the simulator). */
export const EVENT_WAIT_MS = 10_000;
export class RecordingClient {
    constructor() {
        this.events = [];
        this.waiters = new Set();
        /** The facade's listeners that record into `events`. */
        this.listeners = {
            onConnected: () => this.record('connected'),
            onConnecting: () => this.record('connecting'),
            onClosed: (code) => this.record(`closed:${code}`),
        };
    }
    /** Resolves once an event after the first `from` ones is `event`. */
    next(event, from = this.events.length) {
        const seen = () => this.events.slice(from).includes(event);
        if (seen())
            return Promise.resolve();
        let waiter;
        const found = new Promise((resolve) => {
            // Resumes from a macrotask: the event is emitted inside the C client's processing, and a
            // handle opened before the C client has returned from it (and stopped polling the socket it
            // just closed) can get that socket's fd number, on which the package then crashes (SIGSEGV).
            // (Harmless on the simulator, where it is one more step.)
            waiter = () => { if (seen())
                setImmediate(resolve); };
            this.waiters.add(waiter);
        });
        return withTimeout(found, EVENT_WAIT_MS, `client never saw '${event}' (events: ${this.events.join(', ')})`)
            .finally(() => this.waiters.delete(waiter));
    }
    record(event) {
        this.events.push(event);
        for (const waiter of this.waiters)
            waiter();
    }
}
//# sourceMappingURL=recording-client.js.map