import type { ServerConnection } from './server-connection.js';
import type { SimClock } from './sim-clock.js';
import { SIM_ACTOR } from './sim-scheduler.js';

/**
 * Which actors are cut off the network, until when, and the connections that hold their packets
 * meanwhile: a partition is silent (neither end is told), and when it ends the packets TCP kept
 * go out, both ways at once. (The library's session-loss clock counts on hearing from the server
 * only when the server can hear us: a network that healed one way seconds before the other, as
 * TCP's retransmission back-off can make it, is outside what this simulation models; see the
 * simulation in docs/testing-this-library.md.)
 */
export class NetworkPartitions {
  /** Actors cut off (packets both ways wait) until the time given. */
  private readonly until = new Map<string, number>();
  /** Connections holding packets for a partitioned client. */
  private readonly held = new Set<ServerConnection>();

  constructor(private readonly scheduler: SimClock) {}

  /** `actor` is cut off for `ms` (or longer, if a partition already runs past that). */
  cut(actor: string, ms: number): void {
    const end = Math.max(this.until.get(actor) ?? 0, this.scheduler.now + ms);
    this.until.set(actor, end);
    this.scheduler.schedule(end - this.scheduler.now, () => {
      if (this.end(actor) === end) this.heal(actor);
    }, 'partition ends', SIM_ACTOR);
  }

  /** A connection holds packets until its client's partition ends. */
  holding(connection: ServerConnection): void {
    this.held.add(connection);
  }

  isCut(actor: string): boolean {
    return this.end(actor) > this.scheduler.now;
  }

  /** When `actor`'s partition ends (0 when it has none). */
  end(actor: string): number {
    return this.until.get(actor) ?? 0;
  }

  /** The partition of `actor` ends now: its connections release what they held. */
  heal(actor: string): void {
    this.until.delete(actor);
    for (const connection of [...this.held]) {
      if (connection.handle.actor !== actor) continue;
      this.held.delete(connection);
      connection.release();
    }
  }

  /** Every partition ends now. */
  healAll(): void {
    for (const actor of [...this.until.keys()]) this.heal(actor);
  }
}
