import { describeValue } from '../errors/describe-value.js';
import { InvalidOptionsError } from '../errors/invalid-options.error.js';
import { refuseUnknownKeys } from '../errors/known-keys.js';
const PATH = /^[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/;
const KEYS = Object.keys({ path: 1, guard: 1, public: 1, timelineSize: 1, imports: 1 });
/** Checks the options; throws `InvalidOptionsError` (the module never starts unguarded by accident). */
export function resolveDashboardOptions(options) {
    if (options === null || typeof options !== 'object')
        throw new InvalidOptionsError('dashboard', 'expected an object such as { guard: AdminGuard }');
    refuseUnknownKeys(options, KEYS, 'dashboard.');
    const path = (options.path ?? 'zk-lock').replace(/^\/+|\/+$/g, '');
    if (!PATH.test(path) || path.split('/').some((segment) => segment === '.' || segment === '..'))
        throw new InvalidOptionsError('dashboard.path', `expected URL path segments such as "admin/zk-lock", got ${JSON.stringify(options.path)}`);
    if (options.guard === undefined && options.public !== true) {
        throw new InvalidOptionsError('dashboard.guard', 'the dashboard shows every lock holder and can ask them to let go: give it a guard, or say `public: true` if something in front of it already guards it');
    }
    // Nest mounts no guard for a falsy one: `guard: null` (an unset variable, say) would serve the page and its actions to anyone.
    if (options.guard !== undefined && !isGuard(options.guard)) {
        throw new InvalidOptionsError('dashboard.guard', `expected a guard class or an instance with canActivate(), got ${describeValue(options.guard)}: the page and its actions would be served unguarded`);
    }
    if (options.guard !== undefined && options.public === true)
        throw new InvalidOptionsError('dashboard.public', 'a dashboard with a guard is not public: give one or the other');
    const timelineSize = options.timelineSize ?? 200;
    if (!Number.isInteger(timelineSize) || timelineSize < 1 || timelineSize > 10_000) {
        throw new InvalidOptionsError('dashboard.timelineSize', `expected an integer from 1 to 10000, got ${String(options.timelineSize)}`);
    }
    return { path, guard: options.guard, timelineSize };
}
/** A class (Nest resolves it) or an instance with `canActivate`, as `@UseGuards` takes. */
function isGuard(guard) {
    return typeof guard === 'function' || (typeof guard === 'object' && guard !== null && typeof guard.canActivate === 'function');
}
//# sourceMappingURL=dashboard.options.js.map