import type { ServerAddress } from './connect-string.js';
import { clientAddresses, parseEnsembleConfig } from './ensemble-config.js';
import type { SessionHandle } from './session-handle.js';
import type { Watcher } from './types.js';

/** What the tracker reads and steers: a driver that can do both (the TypeScript one). */
export type TrackedHandle = Required<Pick<SessionHandle, 'getConfig' | 'updateServers'>>;

export interface EnsembleTrackerEvents {
  /** The ensemble's client addresses changed (they were applied to the handle already). */
  membersChanged(hosts: readonly ServerAddress[], version: string | undefined): void;
  /** A read of the configuration failed or was unreadable: nothing changed. */
  readFailed(error: unknown): void;
}

/**
 * Follows the ensemble's membership for one session handle, as Curator's `EnsembleTracker`
 * does: reads `/zookeeper/config` on every connection and again whenever its data watch fires
 * (a reconfig committed), and hands the members' client addresses to the handle, which dials
 * them from then on. So a long-lived process keeps reaching the ensemble after the servers of
 * its connect string were replaced. A configuration that lists no client address (a standalone
 * server's is empty) changes nothing.
 *
 * One watch at a time: the watcher is set by the first successful read and again only after it
 * fired; across a reconnection the driver sets it again (`setWatches`), and the server fires it
 * if a reconfig committed meanwhile, so a resumed session misses no change.
 */
export class EnsembleTracker {
  private watchSet = false;
  private reading = false;
  private readAgain = false;
  private stopped = false;
  /** The client addresses of the configuration last applied (none before the first). */
  private applied: readonly ServerAddress[] = [];
  private readonly watcher: Watcher = () => {
    this.watchSet = false;
    this.refresh();
  };

  constructor(
    private readonly handle: TrackedHandle,
    /** Follow the TLS client ports (`secureClientPort`) instead of the plain ones. */
    private readonly secure: boolean,
    private readonly events: EnsembleTrackerEvents,
  ) {}

  /** Reads the configuration now (on each connection, and when it changed). */
  refresh(): void {
    if (this.stopped) return;
    if (this.reading) {
      // A read in flight may have been answered before the change: read once more after it.
      this.readAgain = true;
      return;
    }
    this.reading = true;
    const watch = !this.watchSet;
    this.handle.getConfig(watch ? this.watcher : undefined).then(
      ({ data }) => {
        if (watch) this.watchSet = true;
        if (!this.stopped) this.apply(data.toString('utf8'));
      },
      (error: unknown) => !this.stopped && this.events.readFailed(error),
    ).finally(() => {
      this.reading = false;
      if (this.readAgain) {
        this.readAgain = false;
        this.refresh();
      }
    });
  }

  /** The handle is gone: nothing more is read or applied. */
  stop(): void {
    this.stopped = true;
  }

  private apply(text: string): void {
    let config;
    try {
      config = parseEnsembleConfig(text);
    } catch (error) {
      return this.events.readFailed(error);
    }
    const hosts = clientAddresses(config, this.secure);
    if (hosts.length === 0) return;
    const key = (address: ServerAddress) => `${address.host}:${address.port}`;
    const listed = new Set(hosts.map(key));
    if (listed.size === this.applied.length && this.applied.every((address) => listed.has(key(address)))) return;
    // Left: named by the previous configuration and not by this one. The connect string's servers
    // are never counted as left, since it may name them otherwise (see `ProtocolSession.updateHosts`).
    const left = this.applied.filter((address) => !listed.has(key(address)));
    this.applied = hosts;
    this.handle.updateServers(hosts, left);
    this.events.membersChanged(hosts, config.version);
  }
}
