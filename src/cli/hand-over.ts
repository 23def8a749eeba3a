import { requestHandOver, type HandOverRequest } from '../recipes/partition/hand-over-request.js';
import { znodePaths } from '../recipes/znode-paths.js';
import type { ZkClient } from '../zookeeper/requests.js';
import type { HandOverCommand } from './args.js';
import { printable } from './render.js';

/** Version of the `--json` document of `hand-over`; bumped only on a breaking change. */
export const HAND_OVER_VERSION = 1;

/** What `hand-over --json` prints: the command, its set, and the outcome. */
export type HandOverOutcome = { readonly version: typeof HAND_OVER_VERSION; readonly command: 'hand-over'; readonly name: string } & HandOverRequest;

/**
 * `hand-over <set> <partition>`: adds the partition to the declined list of its owner's member node
 * (`requestHandOver`); the set's assigner moves it, and the owner lets go after its running work.
 * A listing and a read per queue node up to the owner's, a listing of the members and a read per
 * member up to the owner's, one write.
 */
export async function sendHandOver(client: ZkClient, command: HandOverCommand): Promise<HandOverOutcome> {
  const result = await requestHandOver(client, znodePaths.partitionSetDir(command.root, command.name), command.partition);
  return { version: HAND_OVER_VERSION, command: 'hand-over', name: command.name, ...result };
}

/** One line (two when it had been asked already) saying whom the request reached, or why nobody was asked. */
export function renderHandOver(outcome: HandOverOutcome): string {
  const target = `partition ${outcome.partition} of set ${printable(outcome.name)}`;
  if (!outcome.requested) {
    if (outcome.reason === 'not-owned') return `Nobody owns ${target} (it is moving, or nobody is in the set): nobody was asked.\n`;
    if (outcome.reason === 'owner-leaving') return `The owner of ${target} is leaving the set (its member node is gone): its partitions move anyway, nobody was asked.\n`;
    return `The owner of ${target} kept rewriting its member record: nobody was asked (ask again if it is still wanted).\n`;
  }
  const again = outcome.repeated ? `\nIt had been asked before: the move may be under way (it waits for the running work on the partition).` : '';
  return `Asked ${printable(outcome.identity)} (session 0x${outcome.sessionId}, member ${printable(outcome.member)}) to hand over ${target}.${again}\n`;
}
