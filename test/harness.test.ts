/**
 * Tests of the test harness itself (test/support): if these fail, every other failure is suspect.
 * Budget: well under 40 s on a 2-core machine; every wait is bounded.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import ZooKeeper from 'zookeeper';
import { TcpProxy } from './support/tcp-proxy.js';
import { sleep, waitFor, withTimeout } from './support/wait.js';
import { ZkEnsemble, ZkServer } from './support/zk-server.js';

async function connect(connectString: string): Promise<ZooKeeper> {
  const client = new ZooKeeper({ connect: connectString, timeout: 5000, debug_level: 1, host_order_deterministic: true });
  const connected = new Promise<void>((resolve) => client.once('connect', () => resolve()));
  client.init({});
  await withTimeout(connected, 10_000, `no ZooKeeper session to ${connectString} within 10 s`);
  return client;
}

/** Runs `fn` with a fresh session, always closing it. */
async function withClient<T>(connectString: string, fn: (client: ZooKeeper) => Promise<T>): Promise<T> {
  const client = await connect(connectString);
  try { return await fn(client); } finally { client.close(); }
}

function processExists(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch { return false; }
}

describe('ZkServer (standalone)', () => {
  let zk: ZkServer;
  before(async () => { zk = await ZkServer.start(); });
  after(async () => { await zk?.dispose(); });

  it('serves 4lw commands and a parsed mntr', async () => {
    assert.match(zk.connectString, /^127\.0\.0\.1:\d+$/);
    assert.equal(await zk.fourLetter('ruok'), 'imok');
    const mntr = await zk.mntr();
    assert.equal(typeof mntr.zk_znode_count, 'number');
    assert.equal(mntr.zk_server_state, 'standalone');
    assert.equal(await zk.mode(), 'standalone');
  });

  // The `zookeeper` package's C client opens its sockets without close-on-exec: a JVM spawned
  // while one dials would keep a copy, and the package then spins on the dead connection after a
  // restart and closes every new handle as "expired" (README, Child processes). That made the
  // native-driver run of new-session.test.ts fail about one run in ten.
  it('a server started while a native session is connected holds none of this process\'s sockets', async () => {
    const socketsOf = (pid: number | 'self'): Set<string> => {
      const dir = `/proc/${pid}/fd`;
      const links = fs.readdirSync(dir).map((fd) => { try { return fs.readlinkSync(`${dir}/${fd}`); } catch { return ''; } });
      return new Set(links.filter((link) => link.startsWith('socket:')));
    };
    await withClient(zk.connectString, async () => {
      const ours = socketsOf('self');
      const other = await ZkServer.start({ heap: '64m' });
      try {
        const inherited = [...socketsOf(other.pid!)].filter((socket) => ours.has(socket));
        assert.deepEqual(inherited, [], 'the JVM holds sockets of the test process');
      } finally {
        await other.dispose();
      }
    });
  });

  it('keeps its data across kill() and restart() on the same port', async () => {
    await withClient(zk.connectString, (client) => client.create('/harness', 'persisted', 0));
    const { port, pid } = zk;
    await zk.kill();
    assert.equal(zk.isRunning, false);
    assert.equal(processExists(pid!), false);
    await assert.rejects(zk.fourLetter('ruok', 500));

    await zk.restart();
    assert.equal(zk.port, port);
    assert.notEqual(zk.pid, pid);
    const stat = await withClient(zk.connectString, (client) => client.exists('/harness', false));
    assert.ok(stat, '/harness should survive the restart');
  });

  it('stop() is graceful and restart() works after it', async () => {
    await zk.stop();
    assert.equal(zk.isRunning, false);
    await zk.restart();
    assert.equal(await zk.fourLetter('ruok'), 'imok');
  });

  it('pause() makes it unresponsive, resume() brings it back', async () => {
    await zk.pause();
    await assert.rejects(zk.fourLetter('ruok', 300), /timed out/);
    zk.resume();
    assert.equal(await zk.fourLetter('ruok'), 'imok');
  });

  it('dispose() kills the process and removes the temp dir', async () => {
    const other = await ZkServer.start({ heap: '128m' });
    const { pid, dir } = other;
    assert.ok(fs.existsSync(dir));
    await other.pause(); // must still die when stopped
    await other.dispose();
    assert.equal(processExists(pid!), false);
    assert.equal(fs.existsSync(dir), false);
  });
});

describe('ZkEnsemble', () => {
  let ensemble: ZkEnsemble;
  before(async () => { ensemble = await ZkEnsemble.start({ size: 3, heap: '128m' }); });
  after(async () => { await ensemble?.dispose(); });

  it('has exactly one leader and two followers', async () => {
    assert.equal(ensemble.connectString.split(',').length, 3);
    const leader = await ensemble.leader();
    const followers = await ensemble.followers();
    assert.equal(followers.length, 2);
    assert.ok(!followers.includes(leader));
  });

  it('elects a new leader when the leader is killed, and takes it back after restart()', async () => {
    await withClient(ensemble.connectString, (client) => client.create('/ensemble', '', 0));
    const old = await ensemble.leader();
    await old.kill();
    const next = await ensemble.leader(15_000);
    assert.notEqual(next, old);
    assert.ok(ensemble.members.includes(next));

    await old.restart();
    await ensemble.waitForQuorum(20_000);
    assert.equal(await old.mode(), 'follower');
    const stat = await withClient(old.connectString, (client) => client.exists('/ensemble', false));
    assert.ok(stat, 'the restarted member has caught up');
  });
});

describe('TcpProxy', () => {
  let echo: net.Server;
  let proxy: TcpProxy;
  before(async () => {
    echo = net.createServer((socket) => socket.on('error', () => undefined).pipe(socket));
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    proxy = await TcpProxy.start('127.0.0.1', (echo.address() as net.AddressInfo).port);
  });
  after(async () => {
    await proxy?.close();
    await new Promise((resolve) => echo.close(resolve));
  });

  /** A client of the echo server through the proxy, collecting everything it receives. */
  async function client(): Promise<{ socket: net.Socket; received: () => string }> {
    const socket = net.connect(proxy.port, '127.0.0.1');
    socket.on('error', () => undefined);
    let data = '';
    socket.on('data', (chunk) => { data += chunk.toString(); });
    await new Promise((resolve) => socket.once('connect', resolve));
    return { socket, received: () => data };
  }

  it('forwards both ways; cut() holds bytes without closing, restore() delivers them', async () => {
    const { socket, received } = await client();
    socket.write('a');
    await waitFor(() => received() === 'a', { timeoutMs: 2000, message: 'echo through the proxy' });
    assert.equal(proxy.connectionCount, 1);

    proxy.cut();
    socket.write('b');
    await sleep(300);
    assert.equal(received(), 'a', 'nothing crosses a cut');
    assert.equal(socket.destroyed, false);
    assert.equal(proxy.connectionCount, 1);

    proxy.restore();
    await waitFor(() => received() === 'ab', { timeoutMs: 2000, message: 'held bytes after restore' });
    socket.destroy();
    await waitFor(() => proxy.connectionCount === 0, { timeoutMs: 2000, message: 'proxy forgets closed connections' });
  });

  it('reset() disconnects at once; refuse() rejects new connections', async () => {
    const { socket } = await client();
    await waitFor(() => proxy.connectionCount === 1, { timeoutMs: 2000 });
    const closed = new Promise((resolve) => socket.once('close', resolve));
    proxy.reset();
    await withTimeout(closed, 2000, 'client not disconnected by reset()');

    proxy.refuse(true);
    const refused = net.connect(proxy.port, '127.0.0.1');
    refused.on('error', () => undefined);
    await withTimeout(new Promise((resolve) => refused.once('close', resolve)), 2000, 'refused connection stayed open');
    proxy.refuse(false);
    const { socket: again, received } = await client();
    again.write('ok');
    await waitFor(() => received() === 'ok', { timeoutMs: 2000 });
    again.destroy();
  });

  it('carries ZooKeeper traffic', { skip: !process.env.ZK_TEST_CONNECT && 'no ZK_TEST_CONNECT' }, async () => {
    const [host, port] = process.env.ZK_TEST_CONNECT!.split(',')[0]!.split(':');
    const zkProxy = await TcpProxy.start(host!, Number(port));
    try {
      const stat = await withClient(zkProxy.connectString, (zk) => zk.exists('/', false));
      assert.ok(stat);
    } finally {
      await zkProxy.close();
    }
  });
});
