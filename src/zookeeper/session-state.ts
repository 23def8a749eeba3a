/**
 * Connection states of a supervised ZooKeeper session, as `ZkSession.state$` publishes them.
 *
 * - `connecting`: no session yet (start-up).
 * - `connected`: a new session is established (first one, or a replacement after expiry).
 * - `suspended`: the connection dropped; the session may still be alive on the server.
 * - `lost`: the ZooKeeper leader has not been proven to hear from the session for so long that
 *   it may have expired it by now (disconnected, connected to a server cut off from the leader,
 *   or this process paused; see `SessionLossClock`): anything held must be treated as lost,
 *   before another client can be granted it. The session may still come back (`reconnected`).
 * - `reconnected`: the same session is connected again after `suspended`, or confirmed by the
 *   leader again after `lost`.
 * - `expired`: the server expired the session, or it stayed `lost` and disconnected for a full
 *   session timeout after its disconnection and was given up (a server may never take it back,
 *   e.g. one restarted with an empty data directory); a new one is being created.
 * - `closed`: closed by its owner; terminal.
 */
export type SessionState = 'connecting' | 'connected' | 'suspended' | 'lost' | 'reconnected' | 'expired' | 'closed';

/** One transition of the session, with the session it concerns. */
export interface SessionStateChange {
  readonly state: SessionState;
  /** Hex id of the session the state refers to (the new one after `connected`). */
  readonly sessionId: string | undefined;
  /** Monotonic ms (`performance.now()`) of the transition. */
  readonly at: number;
}

/** States in which requests can be answered. */
export function isConnectedState(state: SessionState): boolean {
  return state === 'connected' || state === 'reconnected';
}

/**
 * Session `sessionId` is gone after `change`, and with it its watches and ephemeral nodes:
 * `expired`, `closed`, or replaced by a new session. (A `suspended` or `lost` session keeps them
 * while it may come back: the client sends its watches again on reconnection.) What waits for a
 * watch of that session stops waiting then.
 */
export function isSessionGone(change: Pick<SessionStateChange, 'state' | 'sessionId'>, sessionId: string | undefined): boolean {
  return change.state === 'expired' || change.state === 'closed' || (change.state === 'connected' && change.sessionId !== sessionId);
}

/**
 * Session `sessionId` can no longer be counted on after `change`: it is gone (`isSessionGone`), or
 * it may come back but nobody can say when (`lost`). What it held counts as lost, and what waits
 * on it (a retry, a delete) stops waiting. Pass `{ state, sessionId }` of a session to ask about now.
 */
export function hasSessionEnded(change: Pick<SessionStateChange, 'state' | 'sessionId'>, sessionId: string | undefined): boolean {
  return change.state === 'lost' || isSessionGone(change, sessionId);
}

/** The module's ZooKeeper session changed state (see `SessionState`). */
export interface SessionStateEvent {
  readonly type: 'session.state';
  readonly state: SessionState;
  readonly previous: SessionState;
  /** Hex id of the session the state refers to (the new one after `connected`). */
  readonly sessionId: string | undefined;
}

export type SessionEvent = SessionStateEvent;

/** The channel session events go to (see `EventSink`). */
export interface SessionEventsByChannel {
  session: SessionEvent;
}
