import { validateLockName } from '../recipes/lock-name.js';
import { LeaderService } from '../services/leader.service.js';
import { ON_LEADER_RECOVERY_METADATA } from '../zk-lock.constants.js';
import { LEADER_SERVICE_PROPERTY } from './leader-only.decorator.js';
import { injectOnce, instanceMethod } from './method-decorator.js';
/**
 * Makes a provider (or controller) method the recovery handler of an election (default: the
 * module's default election). It receives the `InterruptedSection` (holder, token, last
 * checkpoint) of a leader that died mid-section, and runs in the process that leads next, before
 * that process reports leadership; if it throws, it is retried with back-off. `@LeaderOnly`
 * methods of the same election that it calls run as part of the recovery (see `LeaderOnly`). Discovered at
 * module init; one handler per election (a second one fails start-up with a `DecoratorMisuseError`).
 * The class must see `ZkLockModule` (as for `@LeaderOnly`): without it, start-up fails with Nest's
 * missing-dependency error naming the class and `ZkLockModule`, rather than the handler never running.
 */
export function OnLeaderRecovery(election) {
    if (election !== undefined)
        validateLockName(election);
    return (target, key, descriptor) => {
        const method = instanceMethod('OnLeaderRecovery', target, key, descriptor, 'static methods cannot be recovery handlers (Nest discovers instance methods)', 'recovery handlers');
        // Nothing here needs LeaderService at run time (the module's explorer calls the handler), but
        // without ZkLockModule nothing would ever call it: declaring the injection makes Nest refuse
        // to start instead, and the property's description says which module to import.
        injectOnce(LeaderService, target, LEADER_SERVICE_PROPERTY);
        const metadata = { election };
        Reflect.defineMetadata(ON_LEADER_RECOVERY_METADATA, metadata, method);
        return descriptor;
    };
}
//# sourceMappingURL=on-leader-recovery.decorator.js.map