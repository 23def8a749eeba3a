import { LockAbortedError } from '../../errors/lock-aborted.error.js';
import { LockTimeoutError } from '../../errors/lock-timeout.error.js';
import { pause } from '../backoff.js';

/**
 * One AbortSignal for "stop waiting": the caller's signal or the wait timeout, whichever comes
 * first. Its reason is the typed error to throw (`LockAbortedError` / `LockTimeoutError`).
 * There is none when there is neither (`create` returns undefined).
 */
export class WaitControl {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private readonly onCallerAbort?: () => void;
  private readonly stopListeners = new Set<() => void>();

  private constructor(
    path: string,
    private readonly callerSignal: AbortSignal | undefined,
    waitMs: number | undefined,
  ) {
    if (callerSignal) {
      this.onCallerAbort = () => this.stop(new LockAbortedError(path, callerSignal.reason));
      if (callerSignal.aborted) this.onCallerAbort();
      else callerSignal.addEventListener('abort', this.onCallerAbort, { once: true });
    }
    if (waitMs !== undefined && waitMs > 0 && Number.isFinite(waitMs) && !this.controller.signal.aborted) {
      this.timer = setTimeout(() => this.stop(new LockTimeoutError(path, waitMs)), waitMs);
    }
  }

  static create(path: string, signal: AbortSignal | undefined, waitMs: number | undefined): WaitControl | undefined {
    const timed = waitMs !== undefined && waitMs > 0 && Number.isFinite(waitMs);
    return signal || timed ? new WaitControl(path, signal, waitMs) : undefined;
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /**
   * Calls `listener` once, when waiting must stop (not if it has stopped already); returns what
   * removes it. The listeners are a plain set that the stop calls in order, synchronously; `signal`
   * is for code that takes an AbortSignal.
   */
  onStop(listener: () => void): () => void {
    this.stopListeners.add(listener);
    return () => void this.stopListeners.delete(listener);
  }

  get stopped(): boolean {
    return this.controller.signal.aborted;
  }

  /** Why waiting stopped: `LockAbortedError` or `LockTimeoutError`. */
  get reason(): unknown {
    return this.controller.signal.reason;
  }

  throwIfStopped(): void {
    if (this.controller.signal.aborted) throw this.controller.signal.reason;
  }

  private stop(reason: LockAbortedError | LockTimeoutError): void {
    if (this.controller.signal.aborted) return;
    this.controller.abort(reason);
    const listeners = [...this.stopListeners];
    this.stopListeners.clear();
    for (const listener of listeners) listener();
  }

  dispose(): void {
    clearTimeout(this.timer);
    if (this.onCallerAbort) this.callerSignal?.removeEventListener('abort', this.onCallerAbort);
  }
}

/**
 * `work`, unless `control` stops first: then it rejects with the stop's reason at once, and `work`
 * goes on unheeded (a stop never waits for a request that is not answered).
 */
export function unlessStopped<T>(work: Promise<T>, control: WaitControl | undefined): Promise<T> {
  if (!control) return work;
  return new Promise<T>((resolve, reject) => {
    const stopListening = control.onStop(() => reject(control.reason));
    if (control.stopped) reject(control.reason);
    work.then(resolve, reject).finally(stopListening);
  });
}

/** A short pause after a retryable failure, so that a state change can land; interrupted by `control` (rejects with its reason). */
export async function pauseUnlessStopped(control: WaitControl | undefined): Promise<void> {
  if (!(await pause(20, control?.signal))) throw control!.reason;
}

/** Resolves when `work` does, or after `ms`, whichever comes first (`work` goes on). */
export function withGrace(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  return Promise.race([work, grace]).finally(() => clearTimeout(timer));
}
