import type { Observable } from 'rxjs';
import type { SessionState, SessionStateChange } from './session-state.js';
import type { ZkClient } from './requests.js';
import type { CreateMode, Watcher, ZkStat } from './types.js';
import type { MultiOp, MultiResult } from './protocol/multi.js';

/** The powers of ZooKeeper's protocol that only some drivers have (the C client of `driver: 'native'` has none). */
export type ProtocolPower = 'create2' | 'multi' | 'addWatch' | 'removeWatches' | 'getEphemerals' | 'whoAmI';

/**
 * What the recipes see of a supervised session: the requests of `ZkClient` (sent on whichever
 * ZooKeeper session is current) plus the session's identity and state. `ZkSession` implements it;
 * tests wrap it to inject faults around a real server.
 */
export interface ZkSessionClient extends ZkClient {
  /** Current state; `state$` replays it to new subscribers, then every change. */
  readonly state: SessionState;
  readonly state$: Observable<SessionStateChange>;
  /** Hex id of the current session (the `ephemeralOwner` of the nodes it creates). */
  readonly sessionId: string | undefined;
  /**
   * True when the server may have expired the current session by now, as far as the client can
   * tell (`lost`, no session, or a pause of this process that no event has reported yet).
   * Synchronous: holders check it before acting.
   */
  readonly mayHaveExpired: boolean;
  /** The session timeout the server granted (or the requested one before the first connect). */
  readonly sessionTimeoutMs: number;
  /**
   * Resolves once requests can be answered (`connected` / `reconnected`). Rejects when the
   * session is closed or `signal` aborts.
   */
  waitForConnection(signal?: AbortSignal): Promise<void>;
  /**
   * Gives a node this session created the configured ACL, if one is configured for its path.
   * `create` already does it; this is for a node whose create reply was lost and that was found
   * afterwards. Rejects with `AclNotAppliedError` when another client changed the ACL first.
   */
  secure(path: string): Promise<void>;
  /**
   * Drops the watch `watcher` set on `path` for a waiter that gave up, here and on the server
   * where the driver can (`ZkSession.forgetWatch`). Never rejects.
   */
  forgetWatch(path: string, kind: 'data' | 'children', watcher: Watcher): void;
  /**
   * A persistent watch on `path` (`recursive`: and on every node below it), kept through the
   * session's reconnections (`ZkSession.addWatch`); `DriverUnsupportedError` with `driver: 'native'`.
   */
  addWatch(path: string, recursive: boolean, listener: Watcher): Promise<void>;
  /** Removes watches of `path` here and, once none of this session needs it, on the server (`ZkSession.removeWatches`). */
  removeWatches(path: string, type: 'data' | 'children' | 'any', watcher?: Watcher): Promise<void>;
  /** A create that answers with the node's stat too (`ZkSession.create2`); `DriverUnsupportedError` with `driver: 'native'`. */
  create2(path: string, data: Buffer | null, mode: CreateMode): Promise<{ path: string; stat: ZkStat }>;
  /** All of `ops` or none, in one request (see `MultiResult`); `DriverUnsupportedError` with `driver: 'native'`. */
  multi(ops: readonly MultiOp[]): Promise<MultiResult[]>;
  /**
   * Whether the session's driver has `power`, for a recipe that must choose its path before it
   * starts (one that would find out from a refusal half-way, after an irrevocable step, cannot).
   */
  supports(power: ProtocolPower): boolean;
}
