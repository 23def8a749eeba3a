import { ZooKeeperError } from '../errors/zookeeper.error.js';
import { formatConnectString, type ServerAddress } from './connect-string.js';
import { clientAddresses, parseEnsembleConfig } from './ensemble-config.js';
import type { SessionHandle } from './session-handle.js';
import type { Watcher } from './types.js';

/** What the tracker reads and steers: a driver that can do both (the TypeScript one). */
export type TrackedHandle = Required<Pick<SessionHandle, 'getConfig' | 'updateServers'>>;

export interface EnsembleTrackerLogger {
  log(message: string): void;
  warn(message: string): void;
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
 * if a reconfig committed meanwhile, so a resumed session misses no change. A failure to read
 * it (connection loss, a server before 3.5 without the node, a line it cannot parse) changes
 * nothing and is logged once per cause, until a read succeeds.
 */
export class EnsembleTracker {
  private watchSet = false;
  private reading = false;
  private readAgain = false;
  private stopped = false;
  /** The client addresses of the configuration last applied (none before the first). */
  private applied: readonly ServerAddress[] = [];
  /** Why the last read failed, logged once until a read succeeds. */
  private failure: string | undefined;
  private readonly watcher: Watcher = () => {
    this.watchSet = false;
    this.refresh();
  };

  constructor(
    private readonly handle: TrackedHandle,
    /** Follow the TLS client ports (`secureClientPort`) instead of the plain ones. */
    private readonly secure: boolean,
    private readonly logger: EnsembleTrackerLogger,
    /** The members' client addresses changed (they were handed to the handle already). */
    private readonly membersChanged: (hosts: readonly ServerAddress[]) => void,
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
      (error: unknown) => !this.stopped && this.readFailed(error),
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
      return this.readFailed(error);
    }
    this.failure = undefined;
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
    this.logger.log(`ZooKeeper ensemble${config.version ? ` (config version 0x${config.version})` : ''}: ${formatConnectString(hosts, '')}; new connections go there`);
    this.membersChanged(hosts);
  }

  private readFailed(error: unknown): void {
    // A connection lost during the read is no failure to report: the next connection reads again.
    if (ZooKeeperError.isRetryable(error)) return;
    const cause = ZooKeeperError.is(error, 'NONODE')
      ? 'the server has no /zookeeper/config (older than 3.5)'
      : `reading /zookeeper/config failed: ${error instanceof Error ? error.message : String(error)}`;
    if (cause === this.failure) return;
    this.failure = cause;
    this.logger.warn(`ZooKeeper ensemble: ${cause}; the session keeps the servers it has`);
  }
}
