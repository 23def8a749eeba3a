/**
 * Lock names as properties, no ZooKeeper (invariant 7): any value either is accepted unchanged as
 * exactly one znode name that ZooKeeper's path rules allow under the root, or fails with
 * `InvalidLockNameError` (never a TypeError while building the message, e.g. for a bigint).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { InvalidLockNameError } from '../../src/errors/invalid-lock-name.error.js';
import { MAX_LOCK_NAME_LENGTH, validateLockName } from '../../src/recipes/lock-name.js';
import { znodePaths } from '../../src/recipes/znode-paths.js';
import { validateZnodePath } from '../../src/zk-lock.options-validator.js';
/** The rule, written independently: ZooKeeper's PathUtils code units plus our length bound. */
function shouldAccept(name) {
    if (name.length === 0 || name.length > MAX_LOCK_NAME_LENGTH || name === '.' || name === '..')
        return false;
    for (let i = 0; i < name.length; i++) {
        const c = name.charCodeAt(i);
        if (c === 0x2f || c <= 0x1f || (c >= 0x7f && c <= 0x9f) || (c >= 0xd800 && c <= 0xf8ff) || c >= 0xfff0)
            return false;
    }
    return true;
}
function outcome(value) {
    try {
        return { accepted: true, name: validateLockName(value) };
    }
    catch (error) {
        return { accepted: false, error };
    }
}
/** Strings biased towards the edges: separators, dots, control and reserved code units, the length bound. */
const nameArb = fc.oneof(fc.string({ unit: 'binary', maxLength: 12 }), fc.string({ unit: fc.constantFrom('a', '.', '/', ':', '\u0000', '\u001f', '\u007f', '\u009f', '\ud800', '\uf8ff', '\uf900', '\ufff0', 'é', ' '), maxLength: 6 }), fc.integer({ min: MAX_LOCK_NAME_LENGTH - 2, max: MAX_LOCK_NAME_LENGTH + 2 }).map((n) => 'x'.repeat(n)), fc.constantFrom('.', '..', '...', './', 'a/..', 'order:123', '✓', '\ud83d\ude00'));
describe('lock names', () => {
    it('a string is accepted unchanged iff it is one valid znode name; otherwise InvalidLockNameError naming it', () => {
        fc.assert(fc.property(nameArb, (name) => {
            const result = outcome(name);
            assert.equal(result.accepted, shouldAccept(name), JSON.stringify(name));
            if (result.accepted) {
                assert.equal(result.name, name);
                const dir = znodePaths.lockDir('/app', name);
                assert.equal(dir.split('/').length, 4, 'exactly one segment under <root>/locks');
                assert.equal(validateZnodePath('lock dir', dir), dir, 'ZooKeeper accepts the path');
            }
            else {
                assert.ok(result.error instanceof InvalidLockNameError, String(result.error));
                assert.equal(result.error.lockName, name);
                assert.equal(result.error.code, 'ZK_INVALID_LOCK_NAME');
            }
        }), { numRuns: 1500 });
    });
    it('any non-string (bigint, symbol, cyclic or prototype-less object, ...) fails with InvalidLockNameError, not a TypeError', () => {
        const cyclic = {};
        cyclic.self = cyclic;
        const nasty = fc.anything({ withBigInt: true, withNullPrototype: true, withBoxedValues: true, withMap: true, withSet: true, withTypedArray: true, withSparseArray: true, withDate: true });
        fc.assert(fc.property(fc.oneof(nasty, fc.constantFrom(10n, Symbol('lock'), cyclic, () => 'x', Object.create(null))), (value) => {
            fc.pre(typeof value !== 'string');
            const result = outcome(value);
            assert.equal(result.accepted, false);
            if (!result.accepted) {
                assert.ok(result.error instanceof InvalidLockNameError, `${String(result.error.name)}: ${result.error.message}`);
                assert.match(result.error.message, /^Invalid lock name .*: expected a string$/);
            }
        }), { numRuns: 400, examples: [[10n], [cyclic], [Object.create(null)]] });
    });
});
//# sourceMappingURL=lock-name.property.test.js.map