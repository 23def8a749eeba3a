/**
 * Expires a ZooKeeper session on demand, the way Curator's and kazoo's tests do: a second handle
 * resumes the session with its id and password (taking it over from the original connection),
 * then closes it, and the server ends the session and its ephemeral nodes at once. The original
 * client must be kept from reconnecting meanwhile (e.g. a refusing TcpProxy), or its
 * reconnection takes the session back before the close arrives.
 */
import { openSessionHandle } from '../../src/zookeeper/open-session-handle.js';
import { withTestDriver } from './test-driver.js';
import { withTimeout } from './wait.js';

export async function closeFromSecondClient(
  connectString: string,
  id: string,
  password: string,
  sessionTimeoutMs = 4000,
  /** Runs once the second client holds the session (the server has closed the first one's connection), before the close. */
  beforeClose?: () => Promise<void>,
): Promise<void> {
  let connected!: () => void;
  let closedWith: number | undefined;
  const ready = new Promise<void>((resolve) => (connected = resolve));
  // The driver of the session being expired: a second client of the other driver can lose the
  // session back to the first one's quicker reconnections, over and over.
  const client = openSessionHandle(
    withTestDriver({ connectString, sessionTimeoutMs }),
    { onConnected: () => connected(), onConnecting: () => undefined, onClosed: (code) => (closedWith = code) },
    { id, password },
  );
  try {
    await withTimeout(ready, 10_000, `could not resume session 0x${id} to expire it`);
    if (closedWith !== undefined || client.sessionId !== id) throw new Error(`the second client did not resume session 0x${id}`);
    // Leave the 'connect' callback first: the C client's close() called from inside it only marks
    // the handle and sends closeSession later.
    await new Promise((resolve) => setImmediate(resolve));
    await beforeClose?.();
  } finally {
    // Sends closeSession and waits for the server's answer: the session is over when this returns
    // (a caller that let the original client reconnect sooner would see it take the session back).
    await client.close();
  }
}
