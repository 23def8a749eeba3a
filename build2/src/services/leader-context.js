import { AsyncLocalStorage } from 'node:async_hooks';
/**
 * The leader section the current async call chain runs in (`@LeaderOnly` methods and
 * `runAsLeader` callbacks), so that code below it reaches the token and `checkpoint()` through
 * `LeaderService.current()` without passing the section around.
 */
export const leaderContext = new AsyncLocalStorage();
//# sourceMappingURL=leader-context.js.map