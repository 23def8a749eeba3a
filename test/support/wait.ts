/**
 * Bounded waiting for tests: poll a condition instead of sleeping a guessed amount, and never wait
 * forever (a hung promise becomes a clear assertion failure instead of a test-runner timeout).
 */

export interface WaitForOptions {
  /** Overall bound, default 10 s. */
  timeoutMs?: number;
  /** Pause between attempts, default 50 ms. */
  intervalMs?: number;
  /** Prefix of the timeout error, e.g. 'lock acquired by the second client'. */
  message?: string;
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Rejects with `message` if `promise` has not settled within `ms`; the timer never outlives it. */
export function withTimeout<T>(promise: Promise<T>, ms: number, message?: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message ?? `Timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Polls `predicate` until it returns (or resolves to) a truthy value, and returns that value.
 * A throwing/rejecting attempt counts as "not yet"; its error is reported if time runs out.
 * Each attempt is itself bounded by the time left, so a hanging predicate cannot stall the wait.
 */
export async function waitFor<T>(
  predicate: () => T | Promise<T>,
  { timeoutMs = 10_000, intervalMs = 50, message = 'condition' }: WaitForOptions = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    const left = deadline - Date.now();
    try {
      const value = await withTimeout(Promise.resolve().then(predicate), Math.max(left, 1));
      if (value) return value as NonNullable<T>;
      lastError = undefined;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() + intervalMs > deadline) {
      const cause = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`waitFor: ${message} not met within ${timeoutMs} ms${cause}`, { cause: lastError });
    }
    await sleep(intervalMs);
  }
}
