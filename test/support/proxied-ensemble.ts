/**
 * A ZooKeeper ensemble on loopback whose quorum links all go through `TcpProxy`s: member i reaches
 * member j's quorum port through `links[i][j]` (a follower dials its leader, so `links[f][l]`
 * carries everything between follower f and leader l). Election ports are direct. For faults
 * between members: a follower cut off from its leader, proposals held back, a member that lags.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TcpProxy } from './tcp-proxy.js';
import { freePorts, ZkServer } from './zk-server.js';

/** `size` members; member i reaches member j's quorum port through `links[i][j]`. */
export class ProxiedEnsemble {
  private constructor(
    readonly dir: string,
    readonly members: ZkServer[],
    readonly links: (TcpProxy | undefined)[][],
  ) {}

  static async start(size: number, config: Record<string, string | number | boolean> = {}): Promise<ProxiedEnsemble> {
    const dir = fs.mkdtempSync(path.join(process.env.ZK_TEST_RUN_DIR ?? os.tmpdir(), 'zk-proxied-'));
    const indexes = Array.from({ length: size }, (_, i) => i);
    const links: (TcpProxy | undefined)[][] = [];
    // The links listen first and the members' ports are picked while they do: picked first and
    // released, a member's port could be handed to a link (it was, in full runs: "address in use").
    for (const i of indexes) {
      links.push([]);
      for (const j of indexes) links[i]!.push(i === j ? undefined : await TcpProxy.start('127.0.0.1', 1));
    }
    const ports = await freePorts(3 * size); // client, quorum, election per member
    for (const i of indexes) for (const j of indexes) links[i]![j]?.retarget('127.0.0.1', ports[3 * j + 1]!);
    const members = indexes.map((i) => {
      const lines = indexes.map((j) => `server.${j + 1}=127.0.0.1:${i === j ? ports[3 * j + 1] : links[i]![j]!.port}:${ports[3 * j + 2]}`);
      const memberDir = path.join(dir, `zk${i + 1}`);
      fs.mkdirSync(path.join(memberDir, 'data'), { recursive: true });
      fs.writeFileSync(path.join(memberDir, 'data', 'myid'), `${i + 1}\n`);
      return ZkServer.member(memberDir, ports[3 * i]!, lines, { heap: '128m', extraConfig: { forceSync: 'no', ...config } });
    });
    const ensemble = new ProxiedEnsemble(dir, members, links);
    try {
      for (const member of members) await member.launch(false);
      await Promise.all(members.map((member) => member.waitReady()));
      return ensemble;
    } catch (error) {
      await ensemble.dispose();
      throw error;
    }
  }

  /** The link member `from` dials member `to`'s quorum port through (a follower dials its leader). */
  link(from: number, to: number): TcpProxy {
    const link = this.links[from]![to];
    if (!link) throw new Error(`no link from member ${from} to itself`);
    return link;
  }

  async modes(): Promise<(string | undefined)[]> {
    return Promise.all(this.members.map((member) => member.mode()));
  }

  async dispose(): Promise<void> {
    for (const row of this.links) for (const link of row) await link?.close();
    await Promise.all(this.members.map((member) => member.dispose()));
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
