/**
 * Issue 14, smaller items: a bad lock name's error says what to do instead, not only what is wrong
 * (invariant 7). No server.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidLockNameError } from '../../src/errors/invalid-lock-name.error.js';
import { validateLockName } from '../../src/recipes/lock-name.js';
function messageFor(name) {
    try {
        validateLockName(name);
    }
    catch (error) {
        assert.ok(error instanceof InvalidLockNameError);
        return error.message;
    }
    assert.fail(`${String(name)} was accepted`);
}
describe('lock name errors say what to do', () => {
    it('each problem comes with the fix', () => {
        assert.match(messageFor('orders/123'), /use ':' instead of '\/' in lock names/);
        assert.match(messageFor(''), /e\.g\. "order:123"/);
        assert.match(messageFor('..'), /choose another name/);
        assert.match(messageFor('a\u0000b'), /U\+0000 at index 1.*remove it/);
        assert.match(messageFor('x'.repeat(201)), /201 characters, at most 200.*shorter/);
        assert.match(messageFor(42), /expected a string$/);
    });
});
//# sourceMappingURL=lock-name-messages.test.js.map