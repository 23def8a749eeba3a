import { znodePaths } from '../recipes/znode-paths.js';
/** The four directories under the root whose children are the names the dashboard shows. */
export const CATEGORIES = ['locks', 'elections', 'rwlocks', 'semaphores'];
/**
 * What the dashboard watches of `name`: the queue directory of each category `has` says it is in,
 * and the ready znodes in `readyOf` (the directories whose last reading had one). One watch per
 * directory, whatever its queue's length.
 */
export function watchTargetsOf(root, name, has, readyOf) {
    const targets = [];
    if (has('locks'))
        targets.push({ path: znodePaths.lockDir(root, name), kind: 'children' });
    if (has('elections'))
        targets.push({ path: znodePaths.electionDir(root, name), kind: 'children' });
    if (has('rwlocks'))
        targets.push({ path: znodePaths.readWriteLockDir(root, name), kind: 'children' });
    if (has('semaphores'))
        targets.push({ path: znodePaths.semaphoreDir(root, name), kind: 'children' });
    for (const dir of readyOf)
        targets.push({ path: znodePaths.ready(dir), kind: 'data' });
    return targets;
}
//# sourceMappingURL=watch-targets.js.map