import { InvalidLockNameError } from '../errors/invalid-lock-name.error.js';

export const MAX_LOCK_NAME_LENGTH = 200;
// ZooKeeper refuses these code points in paths (PathUtils.validatePath).
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\ud800-\uf8ff\ufff0-\uffff]/;

/**
 * A lock or election name becomes one znode name under the root, so that `order:123` and
 * `order:124` are two independent locks. Throws `InvalidLockNameError` naming the problem.
 */
export function validateLockName(name: unknown): string {
  if (typeof name !== 'string') throw new InvalidLockNameError(name, 'expected a string');
  if (name.length === 0) throw new InvalidLockNameError(name, 'must not be empty');
  if (name.length > MAX_LOCK_NAME_LENGTH) throw new InvalidLockNameError(name, `longer than ${MAX_LOCK_NAME_LENGTH} characters`);
  if (name.includes('/')) throw new InvalidLockNameError(name, 'must not contain "/"');
  if (name === '.' || name === '..') throw new InvalidLockNameError(name, 'must not be "." or ".."');
  if (FORBIDDEN.test(name)) throw new InvalidLockNameError(name, 'contains a control or reserved character');
  return name;
}
