import { SessionClosedError } from '../../errors/session-closed.error.js';
import { ZooKeeperError } from '../../errors/zookeeper.error.js';
import { isConnectedState } from '../../zookeeper/session-state.js';
import type { ZkSessionClient } from '../../zookeeper/session-requests.js';
import type { NodeRemoval } from './node-removal.js';
import type { OwnNode } from './queue-node.js';
import { pause } from '../backoff.js';
import { queueNodeToken } from '../fencing.js';


/**
 * DESIGN §3 step 1, the protected create (Curator's protected mode): our queue node's name
 * carries the uuid of the join, so when the reply of its create is lost (the create may or may
 * not have been applied) the join can find out, once reconnected on the same session, without
 * ever leaving an orphan or creating twice.
 */
export class LostCreate {
  constructor(
    private readonly session: ZkSessionClient,
    private readonly removal: NodeRemoval,
  ) {}

  /** Adopts the node carrying our uuid if our session owns it; deletes any other carrying it. */
  async adopt(dir: string, id: string, sessionId: string): Promise<OwnNode | undefined> {
    let children: string[];
    try {
      // The server we reconnected to may lag behind the one that took our create: without the
      // sync, the listing could miss a create that is applied a moment later, and we would create
      // a second node behind an ephemeral of our own live session, stuck for good. After the sync
      // (it goes through the leader) the listing shows every create of ours that was proposed;
      // one still on its way through the old server is refused as SESSIONMOVED, since the session
      // has moved.
      await this.session.sync(dir);
      ({ children } = await this.session.getChildren(dir));
    } catch (error) {
      // No directory, so no node of ours in it: the create never happened (or the container went
      // since). Letting NONODE escape would make `join` look for the node again, forever.
      if (ZooKeeperError.is(error, 'NONODE')) return undefined;
      throw error;
    }
    // Every child with our uuid, not just the first listed: another session may hold one too (a
    // session abandoned while the ensemble was unreachable, which the server kept alive, made it
    // for this very acquisition), and the server lists children in no particular order. Stopping
    // at a foreign one would leave ours behind, an orphan of our live session blocking the queue.
    let own: { path: string; name: string; token: bigint } | undefined;
    for (const name of children.filter((child) => child.startsWith(`_c_${id}-`))) {
      const path = `${dir}/${name}`;
      const stat = await this.session.exists(path);
      if (stat?.ephemeralOwner === sessionId) own = { path, name, token: queueNodeToken(stat.czxid) };
      // Made by hand, or by another session with our uuid: not ours to use, nor to wait behind.
      else if (stat) await this.session.delete(path, -1).catch((error: unknown) => this.removal.report(error));
    }
    if (!own) return undefined;
    // The lost reply was the create's, so its setAcl never went out. A node we cannot protect
    // is not used (an AclNotAppliedError tells why).
    await this.session.secure(own.path).catch(async (error: unknown) => {
      await this.removal.leave(own.path, sessionId).catch((failure: unknown) => this.removal.report(failure));
      throw error;
    });
    return { ...own, sessionId };
  }

  /**
   * The caller gave up while a create's outcome was unknown: make sure no orphan stays. In the
   * background, for as long as the session may live (a new session means the node, if any, is gone).
   */
  async removeOrphan(dir: string, id: string, sessionId: string): Promise<void> {
    for (;;) {
      try {
        await this.session.waitForConnection();
        if (this.session.sessionId !== sessionId) return;
        const node = await this.adopt(dir, id, sessionId);
        if (node) await this.removal.leave(node.path, node.sessionId);
        return;
      } catch (error) {
        if (error instanceof SessionClosedError) return; // closing the session removed the node
        if (!ZooKeeperError.isRetryable(error)) return this.removal.report(error);
        if (isConnectedState(this.session.state)) await pause(20);
      }
    }
  }
}
