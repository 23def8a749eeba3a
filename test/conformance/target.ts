/**
 * What a conformance target provides: a ZooKeeper (the real server, or the simulator) that runs
 * client-level scenarios through the same `SessionHandle` facade (either driver's). A scenario sees only this
 * interface, never the server behind it, so one scenario runs unchanged on every target and
 * their transcripts can be compared.
 *
 * Every method resolves on an event of the target, never after a guessed delay: the simulator
 * runs on virtual time, where a real-time sleep means nothing.
 */
import type { ZkDriver } from '../../src/zookeeper/open-session-handle.js';
import type { SessionHandle } from '../../src/zookeeper/session-handle.js';

export interface ConformanceTarget {
  /** 'zookeeper/typescript' | 'zookeeper/native' | 'simulator' | ... (see targets.ts). */
  readonly name: string;
  /** Runs one scenario in a fresh environment (own root, own clients, all closed afterwards) and returns what it returns. */
  run<T>(scenario: (env: ScenarioEnv) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** How to start a target; `test/conformance/targets.ts` lists one per kind of server. */
export interface ConformanceTargetFactory {
  readonly name: string;
  /** The client its scenarios speak through: on `native`, a scenario that needs a power of the default driver is skipped. */
  readonly driver: ZkDriver;
  start(): Promise<ConformanceTarget>;
}

export interface ScenarioEnv {
  /** A fresh random root path, already created (persistent, open ACL). */
  readonly root: string;
  /** Opens a session (adding `auth` to it when given) and resolves once it is connected. */
  open(options?: { auth?: { scheme: string; credentials: string } }): Promise<ScenarioClient>;
  /**
   * Ends the client's session on the server, as a session timeout would, and resolves once the
   * client has been told on reconnecting (its events end with `connecting`, `closed:-112`). Call
   * it with no request of the client in flight.
   */
  expire(client: ScenarioClient): Promise<void>;
  /**
   * Drops the client's connection and keeps it from reconnecting until `whileCut` (if given) has
   * resolved; then lets it reconnect to the same session, and resolves once it has. Nothing
   * reaches the client until it reconnects. Call it with no request of the client in flight:
   * whether the server applied one would be a race.
   */
  cutConnection(client: ScenarioClient, whileCut?: () => Promise<void>): Promise<void>;
  /** Resolves once a whole container sweep of the server has run after this call (containers emptied before it are gone). */
  sweepContainers(): Promise<void>;
}

export interface ScenarioClient {
  readonly zk: SessionHandle;
  /** The facade's session events in order: 'connected' | 'connecting' | 'closed:<code>'. */
  readonly events: readonly string[];
  /** Closes the session; resolves once the server has ended it (its ephemeral nodes are gone). */
  close(): Promise<void>;
}
