import { RealTimeClock } from '../zookeeper/simulated/real-time-clock.js';
import { SimulatedEnsemble } from '../zookeeper/simulated/simulated-ensemble.js';
import { FrameSession } from './frame-session.js';
import { TcpListener } from './tcp-listener.js';
import { ZnodeFile } from './znode-file.js';

export interface DevServerOptions {
  /** Address to listen on. Default 127.0.0.1: a development server is for this machine. */
  readonly host?: string;
  /** Port. Default 2181; 0 picks a free one (read it back from `port`). */
  readonly port?: number;
  /**
   * Keep the persistent nodes in this JSON file (`ZnodeFile`): loaded at start, written shortly
   * after a reply shows a change, and at `close` (a container the sweep deleted is saved with the
   * next reply or at close). Default: in memory only.
   */
  readonly dataFile?: string;
  /** ZooKeeper's `tickTime`: sessions expire on tick boundaries. Default 2000, as ZooKeeper's. */
  readonly tickMs?: number;
  /** Bounds a requested session timeout is clamped to. Default 2 and 20 ticks, as ZooKeeper's. */
  readonly minSessionTimeoutMs?: number;
  readonly maxSessionTimeoutMs?: number;
  /** How often emptied containers are deleted (`znode.container.checkIntervalMs`). Default 60000, as ZooKeeper's. */
  readonly containerCheckMs?: number;
}

/** `jute.maxbuffer`'s default: the longest request frame a server reads. */
const MAX_FRAME_BYTES = 0xfffff;
/** Zxids of a run start from the time since here (see `startZxid`). */
const ZXID_ORIGIN_MS = Date.UTC(2020, 0, 1);
const HOUR_MS = 3_600_000;

/**
 * The zxid a run counts on from: past every zxid of an earlier run, as a ZooKeeper leader takes a
 * new epoch, so that a client of the last run (a developer restarted the dev server under a running
 * application) is told its session is gone and starts a new one, where a server behind its last
 * zxid would refuse it without an answer (a Java or kazoo client would retry for ever). The epoch
 * counts hours since 2020 and the counter starts at the second within the hour times 2^20: each
 * start (a second or more after the last, which made fewer than 2^20 transactions a second) counts
 * from higher, and zxids stay below 2^53, which the `zookeeper` package's numbers hold exactly.
 * On a data file, also past the saved run's epoch.
 */
function startZxid(savedLastZxid: bigint | undefined): bigint {
  const sinceOrigin = Date.now() - ZXID_ORIGIN_MS;
  const clock = (BigInt(Math.floor(sinceOrigin / HOUR_MS)) << 32n) | (BigInt(Math.floor((sinceOrigin % HOUR_MS) / 1000)) << 20n);
  const afterSaved = savedLastZxid === undefined ? 0n : ((savedLastZxid >> 32n) + 1n) << 32n;
  return clock > afterSaved ? clock : afterSaved;
}

/** A burst of writes is saved once, this long after the first. */
const SAVE_DELAY_MS = 50;

/**
 * A single-member ZooKeeper for development and CI, without Java: the simulator's ensemble
 * (`SimulatedEnsemble`: the data tree, sessions, watches, ACLs, containers) of one member on real
 * time, served over TCP to any ZooKeeper client. Sessions expire when their client goes silent
 * for the negotiated timeout, their ephemeral nodes go, watches fire.
 *
 * What it is not: an ensemble (no replication, no leader election, no reconfig), durable (the
 * tree is in memory, or in `dataFile` rewritten after changes: no transaction log), secure (no
 * TLS, no SASL; `digest` is the only auth scheme), or complete: requests it does not implement
 * (TTL nodes, multiRead, whoAmI, reconfig, ...) are answered
 * UNIMPLEMENTED, never ignored.
 */
export class DevServer {
  private readonly clock: RealTimeClock;
  private readonly ensemble: SimulatedEnsemble;
  private readonly file: ZnodeFile | undefined;
  private readonly connections = new Set<FrameSession>();
  private listener: TcpListener | undefined;
  private savedZxid = 0n;
  private saveTimer: NodeJS.Timeout | undefined;
  private closed = false;

  private constructor(readonly options: DevServerOptions) {
    this.file = options.dataFile === undefined ? undefined : new ZnodeFile(options.dataFile);
    const saved = this.file?.load();
    this.clock = new RealTimeClock({ actor: 'dev-server', background: ['session tick', 'container sweep'] });
    const tickMs = options.tickMs ?? 2000;
    this.ensemble = new SimulatedEnsemble(this.clock, {
      serverIds: [1],
      tickMs,
      minSessionTimeoutMs: options.minSessionTimeoutMs ?? 2 * tickMs,
      maxSessionTimeoutMs: options.maxSessionTimeoutMs ?? 20 * tickMs,
      containerCheckMs: options.containerCheckMs ?? 60_000,
      maxBufferBytes: MAX_FRAME_BYTES,
      latencyMs: [0, 0],
      applyDelayMs: [0, 0],
      zxidStart: startZxid(saved?.lastZxid),
      wallClock: Date.now,
    });
    this.ensemble.restore(saved?.nodes ?? []);
    this.savedZxid = this.ensemble.lastZxid;
  }

  /** Starts a dev server; rejects with `DevServerListenError` when it cannot listen, `DevServerDataFileError` for an unreadable data file. */
  static async start(options: DevServerOptions = {}): Promise<DevServer> {
    const server = new DevServer(options);
    try {
      server.listener = await TcpListener.listen(options.host ?? '127.0.0.1', options.port ?? 2181, (socket) => server.accept(socket));
    } catch (error) {
      server.clock.stop();
      throw error;
    }
    return server;
  }

  get host(): string {
    return this.listener!.host;
  }

  /** The port it listens on (the one picked, after `port: 0`). */
  get port(): number {
    return this.listener!.port;
  }

  /** `host:port`, for a client's connect string. */
  get connectString(): string {
    return `${this.host.includes(':') ? `[${this.host}]` : this.host}:${this.port}`;
  }

  /** Sessions alive on the server (hex ids). */
  liveSessions(): string[] {
    return this.ensemble.liveSessions();
  }

  /** Stops listening, closes every connection, writes the data file a last time, and stops the clock. Sessions end with the server. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const connection of this.connections) connection.close();
    await this.listener?.close();
    clearTimeout(this.saveTimer);
    this.save();
    this.clock.stop();
  }

  private accept(socket: import('node:net').Socket): void {
    if (this.closed) return void socket.destroy();
    const connection = new FrameSession(
      { ensemble: this.ensemble, member: this.ensemble.members[0]!, maxFrameBytes: MAX_FRAME_BYTES, replied: (zxid) => this.changed(zxid) },
      socket,
    );
    this.connections.add(connection);
    socket.once('close', () => this.connections.delete(connection));
  }

  /** A reply showed `zxid`: past the saved one, the tree may have changed, and is saved shortly (a burst of writes once). */
  private changed(zxid: bigint): void {
    if (!this.file || zxid <= this.savedZxid || this.saveTimer) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      this.save();
    }, SAVE_DELAY_MS);
  }

  private save(): void {
    if (!this.file) return;
    this.savedZxid = this.ensemble.lastZxid;
    this.file.save({ lastZxid: this.ensemble.lastZxid, nodes: this.ensemble.persistentNodes() });
  }
}
