import { requestRelease } from '../recipes/queue/release-request.js';
import { znodePaths } from '../recipes/znode-paths.js';
import { printable } from './render.js';
/** Version of the `--json` document of `release` and `step-down`; bumped only on a breaking change. */
export const REQUEST_VERSION = 1;
/**
 * `release <lock>` / `step-down <election>`: marks the node at the head of the lock's (election's)
 * queue, as `LockService.requestRelease` / `LeaderService.requestStepDown` do (see
 * `release-request.ts`). One listing, one read, one write; nothing is deleted.
 */
export async function sendRequest(client, command) {
    const lock = command.command === 'release';
    const dir = lock ? znodePaths.lockDir(command.root, command.name) : znodePaths.electionDir(command.root, command.name);
    const result = await requestRelease(client, dir, lock ? 'lock' : 'n');
    return { version: REQUEST_VERSION, command: command.command, name: command.name, ...result };
}
/** One line (two when the holder had been asked already) saying whom the request reached, or that nobody was asked. */
export function renderRequest(outcome) {
    const lock = outcome.command === 'release';
    const target = `${lock ? 'lock' : 'election'} ${printable(outcome.name)}`;
    if (!outcome.requested) {
        if (outcome.reason === 'free')
            return `Nobody ${lock ? 'holds' : 'takes part in'} ${target}: nobody was asked.\n`;
        return `The ${lock ? 'holders' : 'leaders'} of ${target} kept leaving before the request reached one: nobody was asked (ask again if it is still wanted).\n`;
    }
    const who = `${outcome.identity === null ? 'the holder' : printable(outcome.identity)} (session 0x${outcome.sessionId})`;
    const what = lock ? `to release ${target}` : `to step down as leader of ${target}`;
    const again = outcome.repeated ? `\nIt had been asked before: it may be on its way out, or not watching for requests.` : '';
    return `Asked ${who} ${what}; node ${printable(outcome.node)}.${again}\n`;
}
//# sourceMappingURL=request.js.map