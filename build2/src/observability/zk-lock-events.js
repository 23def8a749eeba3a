import { Observable, Subject } from 'rxjs';
import { channelHasSubscribers, publishOnChannel } from './event-sink.js';
/**
 * The lock, leadership and session events of one `ZkLockModule` (or `ZkLockTestingModule`), for
 * metrics and tracing: inject it and subscribe to `events$`. The same events go to the
 * `node:diagnostics_channel` channels `ZK_LOCK_CHANNELS`, process-wide, for tools that subscribe
 * there (OpenTelemetry instrumentations, APMs). Nothing is built while nobody listens.
 */
export class ZkLockEvents {
}
/** The module's `ZkLockEvents`, and the sink its session, locks and elections emit into. */
export class ZkLockEventHub extends ZkLockEvents {
    constructor() {
        super();
        this.subject = new Subject();
        this.observers = 0;
        this.events$ = new Observable((subscriber) => {
            this.observers++;
            const inner = this.subject.subscribe(subscriber);
            return () => {
                this.observers--;
                inner.unsubscribe();
            };
        });
    }
    wants(channel) {
        return this.observers > 0 || channelHasSubscribers(channel);
    }
    emit(channel, event) {
        publishOnChannel(channel, event);
        // rxjs reports a subscriber's error asynchronously: `next` does not throw into the caller.
        if (this.observers > 0)
            this.subject.next(event);
    }
    /** Completes `events$` (module shutdown). */
    complete() {
        this.subject.complete();
    }
}
//# sourceMappingURL=zk-lock-events.js.map