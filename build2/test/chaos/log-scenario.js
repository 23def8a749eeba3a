import { COUNTER_KEY, ELECTION_KEY } from './chaos-names.js';
export class Scenario {
    constructor() {
        this.workers = [];
        this.store = [];
        this.driver = [];
        this.end = { finalCounter: 0, orphans: [] };
        this.counter = 0;
        /** The store's era: store ops logged after `newEra()` carry it. */
        this.era = 0;
    }
    static ns(ms) {
        return 1e12 + ms * 1e6;
    }
    log(w, inc, ms, line) {
        this.workers.push({ ...line, t: Scenario.ns(ms), w, inc });
        return this;
    }
    storeOp(ms, op) {
        this.store.push({ ...(this.era > 0 && { era: this.era }), ...op, t: Scenario.ns(ms) });
        return this;
    }
    /** The wipe fault told the store a new era began at `ms`: later store ops (as built) carry it. */
    newEra(ms) {
        this.era++;
        return this.driverLine(ms, { ev: 'era', era: this.era });
    }
    driverLine(ms, line) {
        this.driver.push({ ...line, t: Scenario.ns(ms) });
        return this;
    }
    fault(kind, from, to, w, inc = 1) {
        return this.driverLine(to, { ev: 'fault', kind, start: Scenario.ns(from), end: Scenario.ns(to), w, inc: w === undefined ? undefined : inc });
    }
    /** A worker process from `from` to `to` (ms), exiting cleanly unless `killed` / `code` say otherwise. */
    process(w, inc, from, to, exit = {}) {
        this.driverLine(from, { ev: 'spawn', w, inc, pid: 1000 * w + inc });
        this.log(w, inc, from, { ev: 'start', pid: 1000 * w + inc });
        return this.driverLine(to, { ev: 'exit', w, inc, pid: 1000 * w + inc, code: exit.killed ? null : (exit.code ?? 0), signal: exit.killed ? 'SIGKILL' : null, killed: exit.killed ?? false });
    }
    /** One locked call of worker w.inc with `token`, logged and its store ops recorded. */
    section(w, inc, token, plan) {
        this.log(w, inc, plan.want ?? plan.acquired, { ev: 'want' });
        this.log(w, inc, plan.acquired, { ev: 'acquired', token });
        let t = plan.acquired;
        for (const repair of plan.repairs ?? []) {
            this.storeOp(repair.at, { w, inc, op: 'read', token, accepted: true });
            if (repair.repaired)
                this.increment(repair.at, w, inc, token, repair.checkpoint, 'repair', repair.interrupted);
            this.log(w, inc, repair.at, { ev: 'recovered', token, interrupted: repair.interrupted, checkpoint: repair.checkpoint, repaired: repair.repaired });
            t = repair.at;
        }
        this.log(w, inc, t + 0.1, { ev: 'enter', token, ...(plan.node !== undefined && { node: plan.node, sessionId: plan.session }) });
        if (plan.watch)
            this.log(w, inc, t + 0.15, { ev: 'release-watch', token, lock: COUNTER_KEY, node: plan.node, sessionId: plan.session });
        if (plan.seen !== undefined) {
            this.log(w, inc, plan.seen, { ev: 'release-seen', token, lock: COUNTER_KEY, node: plan.node, sessionId: plan.session, error: 'ReleaseRequestedError' });
            if (plan.earlyEnd)
                this.log(w, inc, plan.seen + 0.01, { ev: 'early-end', token, step: plan.earlyEnd });
        }
        if (plan.v !== undefined) {
            this.storeOp(t + 0.2, { w, inc, op: 'read', token, accepted: true });
            this.log(w, inc, t + 0.3, { ev: 'checkpoint', token, v: plan.v });
        }
        if (plan.write !== undefined) {
            if (plan.refused)
                this.storeOp(plan.write, { w, inc, op: 'write', token, accepted: false, reason: plan.refused, expect: plan.v, value: plan.v + 1, kind: 'section' });
            else
                this.increment(plan.write, w, inc, token, plan.v, 'section');
        }
        if (plan.exit !== undefined)
            this.log(w, inc, plan.exit, { ev: 'exit', token, ...(plan.bodyError && { error: plan.bodyError }) });
        if (plan.lost !== undefined)
            this.log(w, inc, plan.lost, { ev: 'lost', token, reason: 'test' });
        if (plan.released !== undefined)
            this.log(w, inc, plan.released, { ev: 'released', token });
        if (plan.outcome !== undefined) {
            const at = Math.max(plan.released ?? 0, plan.lost ?? 0, plan.exit ?? 0) + 0.1;
            this.log(w, inc, at, plan.outcome === 'ok' ? { ev: 'done', ok: true } : { ev: 'done', ok: false, error: plan.outcome });
        }
        return this;
    }
    /** Call `id` of worker w.inc of a workload (`what`), logged as chaos-worker.ts logs it. */
    call(w, inc, id, plan) {
        const locks = Object.keys(plan.grants);
        const permits = plan.what === 'semaphore' ? { take: plan.take ?? 1, permits: plan.permits ?? 3 } : {};
        this.log(w, inc, plan.want ?? plan.acquired ?? 0, { ev: 'call', call: id, what: plan.what, locks, ...permits });
        if (plan.acquired !== undefined) {
            locks.forEach((lock, i) => this.log(w, inc, plan.acquired + 0.01 * i, { ev: 'acquired', token: plan.grants[lock], lock, call: id }));
        }
        if (plan.body) {
            this.log(w, inc, plan.body[0], { ev: 'body', call: id, tokens: plan.grants });
            this.log(w, inc, plan.body[1], { ev: 'body-end', call: id });
        }
        for (const lock of plan.acquired === undefined ? [] : locks) {
            if (plan.lost !== undefined)
                this.log(w, inc, plan.lost, { ev: 'lost', token: plan.grants[lock], reason: 'test', lock, call: id });
            if (plan.released !== undefined)
                this.log(w, inc, plan.released, { ev: 'released', token: plan.grants[lock], lock, call: id });
        }
        if (plan.outcome !== undefined) {
            const at = Math.max(plan.released ?? 0, plan.lost ?? 0, plan.body?.[1] ?? 0, plan.acquired ?? 0, plan.want ?? 0) + 0.1;
            this.log(w, inc, at, plan.outcome === 'ok' ? { ev: 'call-done', call: id, ok: true, ran: plan.body !== undefined } : { ev: 'call-done', call: id, ok: false, ran: plan.body !== undefined, error: plan.outcome });
        }
        return this;
    }
    /** Request `req` of worker w.inc, and its reply as planned. */
    request(w, inc, req, plan) {
        this.log(w, inc, plan.at, { ev: 'request', req, what: plan.what, target: plan.what === 'release' ? COUNTER_KEY : ELECTION_KEY });
        if (plan.done === undefined)
            return this;
        if (plan.error !== undefined)
            return this.log(w, inc, plan.done, { ev: 'request-done', req, error: plan.error });
        if (plan.node === undefined)
            return this.log(w, inc, plan.done, { ev: 'request-done', req, requested: false, reason: plan.reason ?? 'free' });
        return this.log(w, inc, plan.done, { ev: 'request-done', req, requested: true, node: plan.node, identity: plan.identity ?? null, sessionId: plan.session, repeated: false });
    }
    /** Worker w.inc, leading under `token` with session `session`, was asked to step down at `ms`. */
    stepDown(w, inc, ms, token, session) {
        return this.log(w, inc, ms, { ev: 'step-down', token, sessionId: session });
    }
    leader(w, inc, token, from, to) {
        this.log(w, inc, from, { ev: 'leader', value: true, token });
        return to === undefined ? this : this.log(w, inc, to, { ev: 'leader', value: false, token });
    }
    input(stuckBoundMs = 30_000, sessionTimeoutMs = 2000) {
        return { workers: this.workers, store: this.store, driver: this.driver, end: { ...this.end, finalCounter: this.end.finalCounter || this.counter }, stuckBoundMs, sessionTimeoutMs };
    }
    increment(ms, w, inc, token, v, kind, interrupted) {
        this.counter++;
        this.storeOp(ms, { w, inc, op: 'write', token, accepted: true, expect: v, value: v + 1, kind, interrupted });
    }
}
//# sourceMappingURL=log-scenario.js.map