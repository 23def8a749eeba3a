import { LockAbortedError } from '../errors/lock-aborted.error.js';
import { LockTimeoutError } from '../errors/lock-timeout.error.js';

/**
 * One AbortSignal for "stop waiting": the caller's signal or the wait timeout, whichever comes
 * first. Its reason is the typed error to throw (`LockAbortedError` / `LockTimeoutError`).
 * Nothing is allocated when there is neither (the uncontended hot path).
 */
export class WaitControl {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private readonly onCallerAbort?: () => void;

  private constructor(
    path: string,
    private readonly callerSignal: AbortSignal | undefined,
    waitMs: number | undefined,
  ) {
    if (callerSignal) {
      this.onCallerAbort = () => this.controller.abort(new LockAbortedError(path, callerSignal.reason));
      if (callerSignal.aborted) this.onCallerAbort();
      else callerSignal.addEventListener('abort', this.onCallerAbort, { once: true });
    }
    if (waitMs !== undefined && waitMs > 0 && Number.isFinite(waitMs) && !this.controller.signal.aborted) {
      this.timer = setTimeout(() => this.controller.abort(new LockTimeoutError(path, waitMs)), waitMs);
    }
  }

  static create(path: string, signal: AbortSignal | undefined, waitMs: number | undefined): WaitControl | undefined {
    const timed = waitMs !== undefined && waitMs > 0 && Number.isFinite(waitMs);
    return signal || timed ? new WaitControl(path, signal, waitMs) : undefined;
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  throwIfStopped(): void {
    if (this.controller.signal.aborted) throw this.controller.signal.reason;
  }

  dispose(): void {
    clearTimeout(this.timer);
    if (this.onCallerAbort) this.callerSignal?.removeEventListener('abort', this.onCallerAbort);
  }
}
