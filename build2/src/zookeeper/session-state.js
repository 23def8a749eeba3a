/** States in which requests can be answered. */
export function isConnectedState(state) {
    return state === 'connected' || state === 'reconnected';
}
/**
 * Session `sessionId` is gone after `change`, and with it its watches and ephemeral nodes:
 * `expired`, `closed`, or replaced by a new session. (A `suspended` or `lost` session keeps them
 * while it may come back: the client sends its watches again on reconnection.) What waits for a
 * watch of that session stops waiting then.
 */
export function isSessionGone(change, sessionId) {
    return change.state === 'expired' || change.state === 'closed' || (change.state === 'connected' && change.sessionId !== sessionId);
}
/**
 * Session `sessionId` can no longer be counted on after `change`: it is gone (`isSessionGone`), or
 * it may come back but nobody can say when (`lost`). What it held counts as lost, and what waits
 * on it (a retry, a delete) stops waiting. Pass `{ state, sessionId }` of a session to ask about now.
 */
export function hasSessionEnded(change, sessionId) {
    return change.state === 'lost' || isSessionGone(change, sessionId);
}
//# sourceMappingURL=session-state.js.map