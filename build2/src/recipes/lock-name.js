import { InvalidLockNameError } from '../errors/invalid-lock-name.error.js';
export const MAX_LOCK_NAME_LENGTH = 200;
// ZooKeeper refuses these code points in paths (PathUtils.validatePath).
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\ud800-\uf8ff\ufff0-\uffff]/;
/**
 * A lock or election name becomes one znode name under the root, so that `order:123` and
 * `order:124` are two independent locks. Throws `InvalidLockNameError` naming the problem.
 */
export function validateLockName(name) {
    if (typeof name !== 'string')
        throw new InvalidLockNameError(name, 'expected a string');
    if (name.length === 0)
        throw new InvalidLockNameError(name, 'must not be empty; name what the lock guards, e.g. "order:123"');
    if (name.length > MAX_LOCK_NAME_LENGTH) {
        throw new InvalidLockNameError(name, `${name.length} characters, at most ${MAX_LOCK_NAME_LENGTH}; use a shorter name (e.g. an id or a hash of what the lock guards)`);
    }
    // One znode name per lock: a "/" would make it a path of nested znodes.
    if (name.includes('/'))
        throw new InvalidLockNameError(name, `must not contain "/" (a lock name is one znode name); use ':' instead of '/' in lock names, e.g. "order:123"`);
    if (name === '.' || name === '..')
        throw new InvalidLockNameError(name, 'must not be "." or ".." (ZooKeeper refuses them as znode names); choose another name');
    const forbidden = FORBIDDEN.exec(name);
    if (forbidden) {
        const codePoint = `U+${forbidden[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
        throw new InvalidLockNameError(name, `contains the control or reserved character ${codePoint} at index ${forbidden.index}, which ZooKeeper refuses in paths; remove it`);
    }
    return name;
}
//# sourceMappingURL=lock-name.js.map