import { Logger } from '@nestjs/common';
import { DecoratorMisuseError } from '../errors/decorator-misuse.error.js';
import { validateLockName } from '../recipes/lock-name.js';
import { LeaderService } from '../services/leader.service.js';
import { LEADER_ONLY_METADATA } from '../zk-lock.constants.js';
import { copyMetadata, describeMethod, injectOnce, instanceMethod, missingServiceReason } from './method-decorator.js';
/**
 * Property under which Nest injects LeaderService into classes that use @LeaderOnly or
 * @OnLeaderRecovery. Nest names the property in its start-up error when LeaderService cannot be
 * resolved, so its description says what to do.
 */
export const LEADER_SERVICE_PROPERTY = Symbol('LeaderService for @LeaderOnly / @OnLeaderRecovery: import ZkLockModule.forRoot(...) or forRootAsync(...) in the module that provides this class, or in a module it imports (or make ZkLockModule isGlobal)');
const logger = new Logger('ZkLock');
/**
 * Runs the method only in the process that currently leads `election` (default: the module's
 * default election), as a guarded leader section: the election's ready znode is dirty while it
 * runs and ready when it returns, so if this process dies mid-call the next leader's recovery
 * handler repairs it first. On a follower the method does not run: the call resolves undefined
 * (logged at debug). Inside, `leaderService.current()` gives the section (token, signal,
 * `checkpoint()`). The wrapper always returns a promise; it rejects with `LeadershipLostError`
 * when leadership ended while the method ran.
 *
 * Nested calls: called from inside leader work of the same election (another `@LeaderOnly`
 * method, a `runAsLeader` callback, in the same async call chain) it runs inside that section,
 * on the same token and ready-state entry, rather than queueing behind its own caller. Called
 * from the election's recovery handler (`@OnLeaderRecovery`) during a take-over, it runs as part
 * of the recovery, before leadership is reported: under the new leader's token, with no ready-state
 * entry of its own, its checkpoints not recorded; if it throws, the recovery fails and is retried.
 * LeaderService is injected by Nest (a property injection this decorator declares), so a class
 * used without `ZkLockModule` fails at start-up with Nest's missing-dependency error, which names
 * the class and says to import `ZkLockModule`. Composes with `@Cron` / `@Interval` in either order.
 */
export function LeaderOnly(election) {
    if (election !== undefined)
        validateLockName(election);
    return (target, key, descriptor) => {
        const where = describeMethod(target, key);
        const original = instanceMethod('LeaderOnly', target, key, descriptor, 'static methods cannot be leader-only (no instance to inject LeaderService into)', 'leader-only');
        injectOnce(LeaderService, target, LEADER_SERVICE_PROPERTY);
        // One debug line when a follower starts skipping, not one per scheduled call.
        let skipping = false;
        const wrapper = function (...args) {
            const leaderService = this?.[LEADER_SERVICE_PROPERTY];
            if (!(leaderService instanceof LeaderService)) {
                // Never run without knowing we lead: called on something Nest did not build (or detached from `this`).
                return Promise.reject(new DecoratorMisuseError('LeaderOnly', where, missingServiceReason('LeaderService', where)));
            }
            const elected = leaderService.election(election);
            // Inside a section (or the take-over's recovery) of this election it runs as part of that.
            if (!elected.isLeader && !elected.inSection) {
                if (!skipping)
                    logger.debug(`${where} skipped (and skipped silently until this process leads): it does not lead election "${elected.name}"`);
                skipping = true;
                return Promise.resolve(undefined);
            }
            skipping = false;
            return leaderService.runAsLeader(() => original.apply(this, args), elected.name);
        };
        Object.defineProperty(wrapper, 'name', { value: original.name });
        copyMetadata(original, wrapper);
        const metadata = { election };
        Reflect.defineMetadata(LEADER_ONLY_METADATA, metadata, wrapper);
        descriptor.value = wrapper;
        return descriptor;
    };
}
//# sourceMappingURL=leader-only.decorator.js.map