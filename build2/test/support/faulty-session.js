import { ZooKeeperError } from '../../src/errors/zookeeper.error.js';
/** CONNECTIONLOSS as the real client reports it: the outcome of `op` is unknown. */
export function connectionLoss(op, path) {
    return new ZooKeeperError(-4, op, path, 'injected by FaultySession');
}
export class FaultySession {
    constructor(inner) {
        this.inner = inner;
        /** Every request actually handed to the real session, in send order. */
        this.sent = [];
        this.befores = [];
        this.afters = [];
        this.seq = 0;
    }
    get state() {
        return this.inner.state;
    }
    get state$() {
        return this.inner.state$;
    }
    get sessionId() {
        return this.inner.sessionId;
    }
    get mayHaveExpired() {
        return this.inner.mayHaveExpired;
    }
    get sessionTimeoutMs() {
        return this.inner.sessionTimeoutMs;
    }
    waitForConnection(signal) {
        return this.inner.waitForConnection(signal);
    }
    secure(path) {
        return this.inner.secure(path);
    }
    /** Runs `hook` before the next `times` requests of `op` (`'*'`: any); returns a remover. */
    before(op, hook, times = Infinity) {
        return register(this.befores, { op, hook, remaining: times });
    }
    /** Runs `hook` after the next `times` replies of `op` (`'*'`: any); returns a remover. */
    after(op, hook, times = Infinity) {
        return register(this.afters, { op, hook, remaining: times });
    }
    /** How many requests (of `op`, or of any kind) were sent; `since` is a previous `sent.length`. */
    count(op, since = 0) {
        return this.sent.slice(since).filter((request) => op === undefined || request.op === op).length;
    }
    create(path, data, mode) {
        return this.call('create', path, () => this.inner.create(path, data, mode));
    }
    getChildren(path, watcher) {
        return this.call('getChildren', path, () => this.inner.getChildren(path, watcher));
    }
    getData(path, watcher) {
        return this.call('getData', path, () => this.inner.getData(path, watcher));
    }
    exists(path, watcher) {
        return this.call('exists', path, () => this.inner.exists(path, watcher));
    }
    setData(path, data, version) {
        return this.call('setData', path, () => this.inner.setData(path, data, version));
    }
    delete(path, version) {
        return this.call('delete', path, () => this.inner.delete(path, version));
    }
    getAcl(path) {
        return this.call('getAcl', path, () => this.inner.getAcl(path));
    }
    setAcl(path, acl, version) {
        return this.call('setAcl', path, () => this.inner.setAcl(path, acl, version));
    }
    sync(path) {
        return this.call('sync', path, () => this.inner.sync(path));
    }
    async call(op, path, send) {
        const request = { op, path, seq: ++this.seq, sessionId: this.inner.sessionId };
        const befores = take(this.befores, op);
        let reply;
        if (befores.length === 0 && !this.gate) {
            this.sent.push(request);
            reply = send(); // synchronously, exactly as the caller issued it
        }
        else {
            reply = this.sendInTurn(request, befores, send);
        }
        let outcome = await reply.then((value) => ({ ok: true, value }), (error) => ({ ok: false, error }));
        for (const { hook } of take(this.afters, op))
            outcome = (await hook(request, outcome)) ?? outcome;
        if (outcome.ok)
            return outcome.value;
        throw outcome.error;
    }
    /** Waits for earlier held-back requests, runs the before-hooks, sends; later requests queue behind. */
    sendInTurn(request, befores, send) {
        const previous = this.gate;
        let open;
        const gate = new Promise((resolve) => (open = resolve));
        this.gate = gate;
        return (async () => {
            try {
                await previous;
                for (const { hook } of befores)
                    await hook(request);
                this.sent.push(request);
                return send(); // sent before `finally` lets the next request go
            }
            finally {
                if (this.gate === gate)
                    this.gate = undefined;
                open();
            }
        })();
    }
}
function register(list, entry) {
    list.push(entry);
    return () => {
        const index = list.indexOf(entry);
        if (index >= 0)
            list.splice(index, 1);
    };
}
/** The hooks that apply to this request, each used up once. */
function take(list, op) {
    const matching = list.filter((entry) => (entry.op === '*' || entry.op === op) && entry.remaining > 0);
    for (const entry of matching) {
        entry.remaining -= 1;
        if (entry.remaining === 0)
            list.splice(list.indexOf(entry), 1);
    }
    return matching;
}
//# sourceMappingURL=faulty-session.js.map