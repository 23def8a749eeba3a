export class EventStream {
    constructor() {
        this.events = [];
        this.waiters = new Set();
        this.listeners = new Set();
    }
    push(event) {
        this.events.push(event);
        for (const waiter of [...this.waiters]) {
            if (!waiter.match(event))
                continue;
            this.waiters.delete(waiter);
            waiter.resolve(event);
        }
        for (const listener of this.listeners)
            listener(event);
    }
    /** Calls `listener` on every event from now on; returns a function that stops it. */
    subscribe(listener) {
        this.listeners.add(listener);
        return () => this.listeners.delete(listener);
    }
    /** Events named `ev` (of `replica`, matching `where`), in arrival order. */
    all(ev, where = () => true) {
        return this.events.filter((event) => event.ev === ev && where(event));
    }
    /** The first event named `ev` matching `where` at index >= `from` (default: from now on). */
    next(ev, where, { from = this.events.length, timeoutMs, what }) {
        const match = (event) => event.ev === ev && where(event);
        const seen = this.events.slice(from).find(match);
        if (seen)
            return Promise.resolve(seen);
        return new Promise((resolve, reject) => {
            const waiter = {
                match,
                resolve: (event) => {
                    clearTimeout(timer);
                    resolve(event);
                },
            };
            const timer = setTimeout(() => {
                this.waiters.delete(waiter);
                reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`));
            }, timeoutMs);
            this.waiters.add(waiter);
        });
    }
}
//# sourceMappingURL=event-stream.js.map