/**
 * A watch set by a read is in force from the read's reply on: a notification that arrives right
 * behind the reply, in the same chunk of bytes, must reach the watcher. The server sends the
 * reply before any notification of a later change, but a client that registers the watcher only
 * once the caller's promise has resumed (a microtask later) dispatches such a notification to
 * nobody, and the watcher never fires. A proxy holds the server's bytes (the reply, then the
 * notification of another session's write) and delivers them together.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { WatchEvent } from '../../src/zookeeper/types.js';
import { watchedBy } from '../support/server-watches.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { waitFor, withTimeout } from '../support/wait.js';
import { firstHostPort, randomRoot, SessionPool, sharedConnectString } from '../fixtures/session-helpers.js';

describe('a notification right behind the reply of the read that set its watch', () => {
  const pool = new SessionPool();
  after(() => pool.closeAll());

  // (Not getChildren: `wchc` lists data watches only, so the test could not see its watch set.)
  for (const read of ['getData', 'exists'] as const) {
    it(`reaches the ${read} watcher`, async () => {
      const { host, port } = firstHostPort(sharedConnectString());
      const proxy = await TcpProxy.start(host, port);
      try {
        const watching = await pool.open({ connectString: proxy.connectString, sessionTimeoutMs: 6000 });
        const writer = await pool.open();
        const node = randomRoot();
        await writer.create(node);
        let fired!: (event: WatchEvent) => void;
        const event = new Promise<WatchEvent>((resolve) => (fired = resolve));
        proxy.cutReplies();
        const reply: Promise<unknown> = read === 'exists' ? watching.exists(node, fired) : watching.getData(node, fired);
        // The request reached the server (it holds the watch); its reply waits in the proxy.
        await waitFor(async () => (await watchedBy(sharedConnectString(), watching.sessionId!)).includes(node), { timeoutMs: 3000, message: 'watch set on the server' });
        await writer.setData(node, Buffer.from('x'), -1);
        // The server fired it (sent the notification behind the reply) before we let both through.
        await waitFor(async () => !(await watchedBy(sharedConnectString(), watching.sessionId!)).includes(node), { timeoutMs: 3000, message: 'watch fired on the server' });
        proxy.restore();
        await withTimeout(reply, 3000, 'no reply');
        const seen = await withTimeout(event, 3000, `the ${read} watcher never fired`);
        assert.equal(seen.path, node);
      } finally {
        await proxy.close();
      }
    });
  }
});
