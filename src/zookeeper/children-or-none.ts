import { ZooKeeperError } from '../errors/zookeeper.error.js';
import type { ZkClient } from './requests.js';

/**
 * The children of `path`, or none when it does not exist (a directory never made, or a container
 * the server removed once empty): for readers to whom a missing directory means an empty one.
 */
export async function childrenOrNone(client: Pick<ZkClient, 'getChildren'>, path: string): Promise<string[]> {
  try {
    return (await client.getChildren(path)).children;
  } catch (error) {
    if (ZooKeeperError.is(error, 'NONODE')) return [];
    throw error;
  }
}
