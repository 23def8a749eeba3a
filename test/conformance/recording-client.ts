/**
 * What every target's scenario client shares: the facade's session events, recorded in order,
 * and a bounded wait for the next one.
 */
import type { SessionHandle, SessionHandleEvents } from '../../src/zookeeper/session-handle.js';
import { withTimeout } from '../support/wait.js';
import type { ScenarioClient } from './target.js';

/** How long a client event is waited for (virtual ms on the simulator). */
export const EVENT_WAIT_MS = 10_000;

export abstract class RecordingClient implements ScenarioClient {
  readonly events: string[] = [];
  abstract readonly zk: SessionHandle;
  private readonly waiters = new Set<() => void>();

  /** The facade's listeners that record into `events`. */
  protected readonly listeners: SessionHandleEvents = {
    onConnected: () => this.record('connected'),
    onConnecting: () => this.record('connecting'),
    onClosed: (code) => this.record(`closed:${code}`),
  };

  abstract close(): Promise<void>;

  /** Resolves once an event after the first `from` ones is `event`. */
  next(event: string, from = this.events.length): Promise<void> {
    const seen = (): boolean => this.events.slice(from).includes(event);
    if (seen()) return Promise.resolve();
    let waiter!: () => void;
    const found = new Promise<void>((resolve) => {
      // Resumes from a macrotask: the event is emitted inside the C client's processing, and a
      // handle opened before the C client has returned from it (and stopped polling the socket it
      // just closed) can get that socket's fd number, on which the package then crashes (SIGSEGV).
      // (Harmless on the simulator, where it is one more step.)
      waiter = () => { if (seen()) setImmediate(resolve); };
      this.waiters.add(waiter);
    });
    return withTimeout(found, EVENT_WAIT_MS, `client never saw '${event}' (events: ${this.events.join(', ')})`)
      .finally(() => this.waiters.delete(waiter));
  }

  private record(event: string): void {
    this.events.push(event);
    for (const waiter of this.waiters) waiter();
  }
}
