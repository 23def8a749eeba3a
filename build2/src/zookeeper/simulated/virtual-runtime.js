import { AsyncResource } from 'node:async_hooks';
import { syncBuiltinESMExports } from 'node:module';
import { performance } from 'node:perf_hooks';
/** `Date.now()` at virtual time 0: a fixed instant, so that a seed's trace never changes. */
export const VIRTUAL_EPOCH_MS = Date.UTC(2026, 0, 1);
/** The builtin's own exports object (an `import * as` namespace is a copy in a CommonJS build, and frozen in an ES one). */
const crypto = process.getBuiltinModule('node:crypto');
/**
 * A timer of the virtual runtime, shaped like Node's `Timeout` as far as the library uses it
 * (`unref`, `ref`, `hasRef`, `refresh`, and clearing through `clearTimeout`/`clearInterval`).
 */
class VirtualTimer {
    constructor(scheduler, callback, delayMs, args, repeat) {
        this.scheduler = scheduler;
        this.delayMs = delayMs;
        this.args = args;
        this.repeat = repeat;
        this.referenced = true;
        // A Node timer runs its callback in the async context it was set in (AsyncLocalStorage
        // stores, such as the lock frame of a re-entrant call, follow it): so must this one.
        this.callback = AsyncResource.bind(callback);
        this.arm();
    }
    arm() {
        this.event = this.scheduler.schedule(this.delayMs, () => {
            if (this.repeat)
                this.arm();
            else
                this.event = undefined;
            this.callback(...this.args);
        }, this.repeat ? 'interval' : 'timer');
    }
    clear() {
        this.scheduler.cancel(this.event);
        this.event = undefined;
    }
    refresh() {
        this.clear();
        this.arm();
        return this;
    }
    unref() {
        this.referenced = false;
        return this;
    }
    ref() {
        this.referenced = true;
        return this;
    }
    hasRef() {
        return this.referenced;
    }
}
/** Whether a virtual runtime is installed: the globals it patches are a simulation's now. */
export function isVirtualRuntimeInstalled() {
    return globalThis.__zkLockVirtualRuntime === true;
}
/**
 * Puts every source of time and chance the library uses on `scheduler` for the simulation's
 * duration: `setTimeout`/`setInterval`/`setImmediate` (and their clears), `AbortSignal.timeout`,
 * `performance.now()`, `Date.now()`, `Math.random()` and `crypto.randomUUID()`. The library's
 * code keeps calling the globals it always calls, so production runs the real ones and a
 * simulation runs these: nothing of it is threaded through constructors.
 *
 * Returns the function that puts the real ones back. One simulation at a time per process.
 */
export function installVirtualRuntime(scheduler) {
    const g = globalThis;
    const names = ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'clearImmediate'];
    const saved = Object.fromEntries(names.map((name) => [name, g[name]]));
    const savedPerformanceNow = Object.getOwnPropertyDescriptor(performance, 'now');
    const savedDateNow = Date.now;
    const savedRandom = Math.random;
    const savedTimeout = AbortSignal.timeout;
    const savedUuid = crypto.randomUUID;
    if (isVirtualRuntimeInstalled())
        throw new Error('a virtual runtime is installed already: one simulation at a time');
    g.__zkLockVirtualRuntime = true;
    const clear = (timer) => {
        if (timer instanceof VirtualTimer)
            timer.clear();
    };
    g.setTimeout = (callback, ms, ...args) => new VirtualTimer(scheduler, callback, Number(ms) || 0, args, false);
    g.setInterval = (callback, ms, ...args) => new VirtualTimer(scheduler, callback, Math.max(1, Number(ms) || 0), args, true);
    g.setImmediate = (callback, ...args) => new VirtualTimer(scheduler, callback, 0, args, false);
    g.clearTimeout = g.clearInterval = g.clearImmediate = clear;
    Object.defineProperty(performance, 'now', { value: () => scheduler.now, configurable: true, writable: true });
    Date.now = () => VIRTUAL_EPOCH_MS + Math.floor(scheduler.now);
    const random = scheduler.random.fork();
    Math.random = () => random.float();
    AbortSignal.timeout = (ms) => {
        const controller = new AbortController();
        const abort = AsyncResource.bind(() => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')));
        scheduler.schedule(ms, abort, 'AbortSignal.timeout');
        return controller.signal;
    };
    // `import { randomUUID } from 'node:crypto'` is a live binding of the builtin's exports, which
    // syncBuiltinESMExports refreshes from the CommonJS object.
    const uuids = scheduler.random.fork();
    crypto.randomUUID = (() => uuids.uuid());
    syncBuiltinESMExports();
    return () => {
        for (const name of names)
            g[name] = saved[name];
        if (savedPerformanceNow)
            Object.defineProperty(performance, 'now', savedPerformanceNow);
        else
            delete performance.now;
        Date.now = savedDateNow;
        Math.random = savedRandom;
        AbortSignal.timeout = savedTimeout;
        crypto.randomUUID = savedUuid;
        syncBuiltinESMExports();
        delete g.__zkLockVirtualRuntime;
    };
}
//# sourceMappingURL=virtual-runtime.js.map