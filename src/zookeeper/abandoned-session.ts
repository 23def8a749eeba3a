import { openSessionHandle, type SessionHandleOptions } from './open-session-handle.js';
import { HANDLE_CLOSED, type SessionHandle } from './session-handle.js';

/**
 * Ends a session that the supervisor abandoned while the ensemble was unreachable (see
 * `ZkSession`). A server that kept its data restores every session from its log on restart and
 * gives it a fresh timeout, so the abandoned session's ephemeral nodes (queue and election nodes
 * that were already given up at `lost`) would hold their places, ahead of everyone including our
 * new session, for one more session timeout. A second handle resumes the session with its id and
 * password and closes it, which deletes them at once; a server that does not know the session
 * (expired, or its data wiped) answers the resume with an expiry, and nothing is left to do.
 * Bounded by `boundMs`, after which the server has expired the session by itself.
 */
export class AbandonedSessionCloser {
  private readonly client: SessionHandle;
  private readonly bound: NodeJS.Timeout;
  private done = false;

  constructor(
    options: SessionHandleOptions,
    readonly sessionId: string,
    password: string,
    boundMs: number,
    private readonly onDone: (outcome: 'closed' | 'already-expired' | 'gave-up') => void,
  ) {
    this.client = openSessionHandle(
      options,
      {
        onConnected: () => {
          // close() from inside the package's 'connect' callback would only mark the handle; it
          // sends closeSession when called from outside it.
          setImmediate(() => this.finish('closed'));
        },
        onConnecting: () => undefined,
        onClosed: (code) => this.finish(code === HANDLE_CLOSED.expired ? 'already-expired' : 'gave-up'),
      },
      { id: sessionId, password },
    );
    this.bound = setTimeout(() => this.finish('gave-up'), boundMs);
  }

  /** Stops trying (the supervisor is closing); a resumed session is closed. */
  stop(): void {
    this.finish('gave-up');
  }

  private finish(outcome: 'closed' | 'already-expired' | 'gave-up'): void {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.bound);
    this.client.close();
    this.onDone(outcome);
  }
}
