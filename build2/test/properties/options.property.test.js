/**
 * Module options as properties, no ZooKeeper (invariant 7): for any object, with any value in any
 * field, `resolveZkLockOptions` either resolves or throws `InvalidOptionsError` whose `field` names
 * an option that exists, or the unknown key it was given. Never a TypeError from building the message (a bigint, a prototype-less
 * object), never a silently accepted bad value. Good values come back unchanged.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { InvalidOptionsError } from '../../src/errors/invalid-options.error.js';
import { resolveZkLockOptions } from '../../src/zk-lock.options-validator.js';
const FIELDS = ['connect', 'root', 'sessionTimeoutMs', 'connectTimeoutMs', 'auth', 'acl', 'clientLogLevel', 'identity', 'drainTimeoutMs', 'election'];
const nasty = fc.anything({ withBigInt: true, withNullPrototype: true, withBoxedValues: true, withMap: true, withSet: true, withDate: true, maxDepth: 2 });
const oddValue = fc.oneof(nasty, fc.constantFrom(10n, Symbol('x'), Object.create(null), Number.NaN, -0, Infinity, '', ' ', [], [null], () => 1));
/** Good values per field (all must be accepted together). */
const goodConnect = fc.constantFrom('127.0.0.1:2181', 'zk1:2181,zk2:2181/app', '[::1]:2181', 'localhost:1/a/b');
const goodFields = fc.record({
    root: fc.constantFrom('/zk-lock', '/a', '/apps/orders-locks', '/ä b'),
    sessionTimeoutMs: fc.integer({ min: 100, max: 2 ** 31 - 1 }),
    connectTimeoutMs: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
    clientLogLevel: fc.constantFrom('silent', 'error', 'warn', 'info', 'debug'),
    identity: fc.string({ minLength: 1, maxLength: 1024 }),
    drainTimeoutMs: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
    election: fc.record({ name: fc.constantFrom('default', 'leader:1'), joinOnBootstrap: fc.boolean(), suspendPolicy: fc.constantFrom('immediate', 'deadline') }, { requiredKeys: [] }),
}, { requiredKeys: [] });
function resolve(options) {
    try {
        resolveZkLockOptions(options);
        return { ok: true };
    }
    catch (error) {
        return { ok: false, error };
    }
}
function assertTyped(result, expectedField, options) {
    if (result.ok)
        return;
    const { error } = result;
    assert.ok(error instanceof InvalidOptionsError, `expected InvalidOptionsError, got ${error?.name}: ${error?.message}`);
    const top = error.field.split(/[.[ ]/)[0];
    const givenUnknown = options !== null && typeof options === 'object' && Object.keys(options).includes(error.field) && /unknown option/.test(error.message);
    assert.ok(top === 'options' || FIELDS.includes(top) || givenUnknown, `field "${error.field}" names an option, or the unknown key given`);
    if (expectedField)
        assert.equal(top, expectedField, error.message);
}
describe('module options', () => {
    it('any value in one field: accepted, or InvalidOptionsError naming that field', () => {
        fc.assert(fc.property(fc.constantFrom(...FIELDS), oddValue, (field, value) => {
            const options = { connect: '127.0.0.1:2181', [field]: value };
            const result = resolve(options);
            // `undefined` means "default"; anything else that passes must be a value the field allows.
            assertTyped(result, field);
        }), { numRuns: 1500, examples: [['root', 10n], ['sessionTimeoutMs', Object.create(null)], ['election', { name: 10n }], ['election', { joinOnBootstrap: Object.create(null) }]] });
    });
    it('any object at all (random keys and values, nested): resolves or throws InvalidOptionsError', () => {
        const anyOptions = fc.oneof(oddValue, fc.dictionary(fc.constantFrom(...FIELDS, 'other'), oddValue), fc.record({ connect: goodConnect, election: fc.dictionary(fc.constantFrom('name', 'joinOnBootstrap', 'suspendPolicy'), oddValue) }), fc.record({ connect: goodConnect, auth: fc.array(fc.dictionary(fc.constantFrom('scheme', 'credentials'), oddValue), { maxLength: 3 }) }), fc.record({ connect: goodConnect, acl: fc.array(fc.dictionary(fc.constantFrom('perms', 'scheme', 'id'), oddValue), { maxLength: 3 }) }));
        fc.assert(fc.property(anyOptions, (options) => assertTyped(resolve(options), undefined, options)), { numRuns: 1500 });
    });
    it('good values in every field are accepted and come back unchanged', () => {
        fc.assert(fc.property(goodConnect, goodFields, (connect, fields) => {
            const resolved = resolveZkLockOptions({ connect, ...fields });
            assert.equal(resolved.connect, connect);
            for (const key of ['root', 'sessionTimeoutMs', 'connectTimeoutMs', 'clientLogLevel', 'identity', 'drainTimeoutMs']) {
                if (fields[key] !== undefined)
                    assert.equal(resolved[key], fields[key], key);
            }
            for (const [key, value] of Object.entries(fields.election ?? {}))
                assert.equal(resolved.election[key], value, `election.${key}`);
            assert.equal(resolved.electionConfigured, fields.election !== undefined);
        }), { numRuns: 300 });
    });
});
//# sourceMappingURL=options.property.test.js.map