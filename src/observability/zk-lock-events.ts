import { Observable, Subject } from 'rxjs';
import { channelHasSubscribers, publishOnChannel, type ZkLockChannel } from './event-sink.js';
import type { ZkLockEvent, ZkLockEventSink, ZkLockEventsByChannel } from './zk-lock-event.js';

/**
 * The lock, leadership and session events of one `ZkLockModule` (or `ZkLockTestingModule`), for
 * metrics and tracing: inject it and subscribe to `events$`. The same events go to the
 * `node:diagnostics_channel` channels `ZK_LOCK_CHANNELS`, process-wide, for tools that subscribe
 * there (OpenTelemetry instrumentations, APMs). Nothing is built while nobody listens.
 */
export abstract class ZkLockEvents {
  /**
   * Every event as it happens, synchronously, in order (hot: no replay to late subscribers).
   * Completes when the module shuts down, after the session's `closed` state.
   */
  abstract readonly events$: Observable<ZkLockEvent>;
}

/** The module's `ZkLockEvents`, and the sink its session, locks and elections emit into. */
export class ZkLockEventHub extends ZkLockEvents implements ZkLockEventSink {
  readonly events$: Observable<ZkLockEvent>;
  private readonly subject = new Subject<ZkLockEvent>();
  private observers = 0;

  constructor() {
    super();
    this.events$ = new Observable<ZkLockEvent>((subscriber) => {
      this.observers++;
      const inner = this.subject.subscribe(subscriber);
      return () => {
        this.observers--;
        inner.unsubscribe();
      };
    });
  }

  wants(channel: ZkLockChannel): boolean {
    return this.observers > 0 || channelHasSubscribers(channel);
  }

  emit<C extends ZkLockChannel>(channel: C, event: ZkLockEventsByChannel[C]): void {
    publishOnChannel(channel, event);
    // rxjs reports a subscriber's error asynchronously: `next` does not throw into the caller.
    if (this.observers > 0) this.subject.next(event);
  }

  /** Completes `events$` (module shutdown). */
  complete(): void {
    this.subject.complete();
  }
}
