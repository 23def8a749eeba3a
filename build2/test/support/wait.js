/**
 * Bounded waiting for tests: poll a condition instead of sleeping a guessed amount, and never wait
 * forever (a hung promise becomes a clear assertion failure instead of a test-runner timeout).
 */
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** Rejects with `message` if `promise` has not settled within `ms`; the timer never outlives it. */
export function withTimeout(promise, ms, message) {
    let timer;
    const timeout = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(message ?? `Timed out after ${ms} ms`)), ms);
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
/**
 * Polls `predicate` until it returns (or resolves to) a truthy value, and returns that value.
 * A throwing/rejecting attempt counts as "not yet"; its error is reported if time runs out.
 * Each attempt is itself bounded by the time left, so a hanging predicate cannot stall the wait.
 */
export async function waitFor(predicate, { timeoutMs = 10_000, intervalMs = 50, message = 'condition' } = {}) {
    const deadline = Date.now() + timeoutMs;
    let lastError;
    for (;;) {
        const left = deadline - Date.now();
        try {
            const value = await withTimeout(Promise.resolve().then(predicate), Math.max(left, 1));
            if (value)
                return value;
            lastError = undefined;
        }
        catch (error) {
            lastError = error;
        }
        if (Date.now() + intervalMs > deadline) {
            const cause = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
            throw new Error(`waitFor: ${message} not met within ${timeoutMs} ms${cause}`, { cause: lastError });
        }
        await sleep(intervalMs);
    }
}
//# sourceMappingURL=wait.js.map