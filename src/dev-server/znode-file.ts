import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { DevServerDataFileError } from '../errors/dev-server-data-file.error.js';
import type { ZkAcl } from '../zookeeper/types.js';
import { parentOf } from '../zookeeper/znode-path.js';
import type { PersistentNode } from '../zookeeper/simulated/znode-tree.js';

/** What the first line of a data file says it is: a file of another format is refused, not misread. */
const FORMAT = 'nestjs-zk-lock dev-server znodes 1';

/** The server's own subtree (`/zookeeper`): made at every start, never saved. */
export const SYSTEM_ROOT = '/zookeeper';

/** What a data file holds: the persistent nodes, and the last zxid of the run that wrote it. */
export interface SavedTree {
  readonly lastZxid: bigint;
  readonly nodes: readonly PersistentNode[];
}

interface FileNode {
  path: string;
  /** base64 */
  data: string;
  acl: ZkAcl[];
  container: boolean;
  sequence: number;
}

/**
 * The dev server's `--data` file: the persistent nodes and containers of the tree as JSON (data in
 * base64, ACLs, each node's sequence counter), and the last zxid of the run that wrote it (hex). No
 * sessions and so no ephemeral nodes: a restarted dev server has forgotten every session, as a
 * ZooKeeper would after its sessions' timeouts. Written whole to a temporary file and renamed
 * over the old one, so that a crash mid-write leaves the previous state, never half a file.
 */
export class ZnodeFile {
  constructor(readonly path: string) {}

  /** The saved tree, or undefined when there is no file yet. Throws `DevServerDataFileError` for a file it cannot read back. */
  load(): SavedTree | undefined {
    if (!existsSync(this.path)) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(this.path, 'utf8'));
    } catch (error) {
      throw new DevServerDataFileError(this.path, `not JSON (${(error as Error).message})`, { cause: error });
    }
    const file = parsed as { format?: unknown; lastZxid?: unknown; nodes?: unknown };
    if (file?.format !== FORMAT) throw new DevServerDataFileError(this.path, `not a dev server data file (format is not "${FORMAT}")`);
    if (typeof file.lastZxid !== 'string' || !/^0x[0-9a-f]{1,16}$/.test(file.lastZxid)) throw new DevServerDataFileError(this.path, 'lastZxid is not a hex zxid (0x...)');
    if (!Array.isArray(file.nodes)) throw new DevServerDataFileError(this.path, 'nodes is not a list');
    // Parents before children, each once, none in the server's own subtree: the tree is rebuilt in this order.
    const known = new Set(['/']);
    const nodes = (file.nodes as FileNode[]).map((node, i) => {
      if (typeof node?.path !== 'string' || !node.path.startsWith('/') || typeof node.data !== 'string' || !Array.isArray(node.acl) || !Number.isInteger(node.sequence)) {
        throw new DevServerDataFileError(this.path, `node #${i} is not { path, data, acl, container, sequence }`);
      }
      if (known.has(node.path) || !known.has(parentOf(node.path)) || node.path === SYSTEM_ROOT || node.path.startsWith(`${SYSTEM_ROOT}/`)) {
        throw new DevServerDataFileError(this.path, `node #${i} (${node.path}) is a duplicate, comes before its parent, or is in ${SYSTEM_ROOT}`);
      }
      known.add(node.path);
      return { path: node.path, data: Buffer.from(node.data, 'base64'), acl: node.acl, container: node.container === true, sequence: node.sequence };
    });
    return { lastZxid: BigInt(file.lastZxid), nodes };
  }

  /** Replaces the file with `tree` (the `/zookeeper` subtree left out). */
  save(tree: SavedTree): void {
    const nodes: FileNode[] = tree.nodes
      .filter((node) => node.path !== SYSTEM_ROOT && !node.path.startsWith(`${SYSTEM_ROOT}/`))
      .map((node) => ({ path: node.path, data: node.data.toString('base64'), acl: [...node.acl], container: node.container, sequence: node.sequence }));
    const temporary = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify({ format: FORMAT, lastZxid: `0x${tree.lastZxid.toString(16)}`, nodes }, null, 1)}\n`);
    renameSync(temporary, this.path);
  }
}
