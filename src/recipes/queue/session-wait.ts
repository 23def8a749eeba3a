import type { Subscription } from 'rxjs';
import { isSessionGone, type SessionStateChange } from '../../zookeeper/session-state.js';
import type { ZkSessionClient } from '../../zookeeper/session-requests.js';
import type { WaitControl } from './wait-control.js';

/** Who may cut a wait short from outside: `wake` is set while it waits (our own node changed). */
export interface Wakeable {
  wake: (() => void) | undefined;
}

/**
 * The plumbing of a wait for a watch of session `sessionId` (a predecessor's deletion, a queue's
 * change), settled once: by the waiting code (`end`, `fail`), with `ifGone` when the session is
 * gone (`isSessionGone`: the watch went with it, and so did our nodes), with `ifGone` when a
 * `Wakeable` is woken, or with the stop's reason when `control` stops. Whatever calls it after it
 * settled (a stale watch callback, a late reply) is ignored. A disconnection alone does not end it:
 * the client sends the watch again on reconnection; `onState` sees every state change for those
 * who care.
 */
export class SessionWait<T> {
  readonly done: Promise<T>;
  private settled = false;
  private resolve!: (value: T) => void;
  private reject!: (error: unknown) => void;
  private readonly wakeable: readonly Wakeable[];
  private readonly subscription: Subscription;
  private readonly stopListening: (() => void) | undefined;

  constructor(
    session: ZkSessionClient,
    sessionId: string,
    private readonly ifGone: T,
    options: { control?: WaitControl; wakeable?: readonly Wakeable[]; onState?: (change: SessionStateChange) => void } = {},
  ) {
    this.done = new Promise<T>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    this.wakeable = options.wakeable ?? [];
    for (const waiter of this.wakeable) waiter.wake = () => this.end(ifGone);
    // state$ replays the current state synchronously: the wait may end inside subscribe().
    this.subscription = session.state$.subscribe((change) => {
      options.onState?.(change);
      if (isSessionGone(change, sessionId)) this.end(ifGone);
    });
    const { control } = options;
    if (control && !this.settled) {
      this.stopListening = control.onStop(() => this.fail(control.reason));
      if (control.stopped) this.fail(control.reason);
    }
    if (this.settled) this.cleanUp();
  }

  get isSettled(): boolean {
    return this.settled;
  }

  end(value: T = this.ifGone): void {
    if (this.settle()) this.resolve(value);
  }

  fail(error: unknown): void {
    if (this.settle()) this.reject(error);
  }

  private settle(): boolean {
    if (this.settled) return false;
    this.settled = true;
    this.cleanUp();
    return true;
  }

  private cleanUp(): void {
    for (const waiter of this.wakeable) waiter.wake = undefined;
    // Unset during construction when the wait ended inside subscribe(): the constructor calls again.
    this.subscription?.unsubscribe();
    this.stopListening?.();
  }
}
