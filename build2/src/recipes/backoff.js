/** Exponential back-off: `initialMs` after the first failure, doubling, never above `maxMs`. */
export function backoffDelay(failures, initialMs = 100, maxMs = 5000) {
    return Math.min(maxMs, initialMs * 2 ** Math.max(0, failures - 1));
}
/**
 * The recipes' one way to wait a while: resolves `true` after `ms`, or `false` as soon as `signal`
 * aborts (never rejects).
 */
export function pause(ms, signal) {
    if (signal?.aborted)
        return Promise.resolve(false);
    return new Promise((resolve) => {
        const timer = setTimeout(() => finish(true), ms);
        const onAbort = () => finish(false);
        signal?.addEventListener('abort', onAbort, { once: true });
        function finish(elapsed) {
            clearTimeout(timer);
            signal?.removeEventListener('abort', onAbort);
            resolve(elapsed);
        }
    });
}
//# sourceMappingURL=backoff.js.map