import type { ServerAddress } from './server-link.js';

/**
 * The servers of a connect string, tried in a shuffled order (spreading clients over the
 * ensemble), one after another. After a full round without a session it waits before the next
 * (`StaticHostProvider`: one second), so that a down ensemble costs no tight loop.
 */
export class HostList {
  private readonly hosts: ServerAddress[];
  private next = 0;
  private triedSinceConnect = 0;

  constructor(hosts: readonly ServerAddress[], random: () => number = Math.random) {
    this.hosts = [...hosts];
    for (let i = this.hosts.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [this.hosts[i], this.hosts[j]] = [this.hosts[j]!, this.hosts[i]!];
    }
  }

  get size(): number {
    return this.hosts.length;
  }

  /** The next server, and how long to wait before dialing it. */
  take(roundPauseMs = 1000): { address: ServerAddress; delayMs: number } {
    const address = this.hosts[this.next]!;
    this.next = (this.next + 1) % this.hosts.length;
    const delayMs = this.triedSinceConnect > 0 && this.triedSinceConnect % this.hosts.length === 0 ? roundPauseMs : 0;
    this.triedSinceConnect += 1;
    return { address, delayMs };
  }

  /** A session was established: the next failure starts a new round. */
  connected(): void {
    this.triedSinceConnect = 0;
  }
}
