/**
 * Connect strings against the parser that will read them: the ZooKeeper C client inside the
 * `zookeeper` package (`zookeeper_init` splits hosts and chroot and resolves every host; it returns
 * an error for what it cannot parse). No server is involved: hosts are loopback, and each handle is
 * closed right after init. What the validator accepts, the C client accepts (after
 * `nativeConnectString`, which unbrackets IPv6); what the validator refuses fails with
 * `InvalidOptionsError`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { InvalidOptionsError } from '../../src/errors/invalid-options.error.js';
import { validateConnectString } from '../../src/zk-lock.options-validator.js';
import { loadNativeZooKeeper } from '../../src/zookeeper/native-binding.js';
import { nativeConnectString } from '../../src/zookeeper/connect-string.js';
/** Whether the C client's zookeeper_init parses (and resolves) `connect`. */
function cClientAccepts(connect) {
    const ZooKeeper = loadNativeZooKeeper();
    const handle = new ZooKeeper({});
    const init = handle.native;
    const result = init.init({ connect, timeout: 2000, debug_level: 0, host_order_deterministic: true });
    if (result instanceof Error)
        return false;
    init.close();
    return true;
}
function validated(connect) {
    try {
        return validateConnectString(connect);
    }
    catch (error) {
        assert.ok(error instanceof InvalidOptionsError, `${String(error)}`);
        return error;
    }
}
const host = fc.constantFrom('127.0.0.1', 'localhost', '[::1]', '[0:0:0:0:0:0:0:1]');
const port = fc.integer({ min: 1, max: 65535 });
const blank = fc.constantFrom('', ' ', '  ', '\t');
const chroot = fc.constantFrom('', '/a', '/a/b', '/apps/orders-locks', '/x y');
const goodConnect = fc
    .record({ hosts: fc.array(fc.record({ host, port, before: blank, after: blank }), { minLength: 1, maxLength: 4 }), chroot, outer: blank })
    .map(({ hosts, chroot, outer }) => `${outer}${hosts.map((h) => `${h.before}${h.host}:${h.port}${h.after}`).join(',')}${chroot}${outer}`);
describe('connect strings', () => {
    it('accepts hosts, IPv4, bracketed IPv6, several hosts, a chroot and blanks around entries; the C client parses the result', () => {
        fc.assert(fc.property(goodConnect, (connect) => {
            const result = validated(connect);
            assert.equal(typeof result, 'string', `refused ${JSON.stringify(connect)}: ${String(result)}`);
            assert.ok(cClientAccepts(nativeConnectString(result)), `C client refuses ${JSON.stringify(result)}`);
        }), { numRuns: 150 });
    });
    it('table: what the C client parses is accepted (normalized), except deliberate refusals', () => {
        const accepted = [
            ['127.0.0.1:2181', '127.0.0.1:2181'],
            ['localhost:2181/a/b', 'localhost:2181/a/b'],
            [' 127.0.0.1:2181', '127.0.0.1:2181'],
            ['127.0.0.1:2181 , localhost:2182', '127.0.0.1:2181,localhost:2182'], // the C client refuses the blank after a port
            ['127.0.0.1:2181 /app', '127.0.0.1:2181/app'],
            ['[::1]:2181', '[::1]:2181'], // the C client itself cannot parse brackets: nativeConnectString removes them
            ['127.0.0.1:65535', '127.0.0.1:65535'],
        ];
        for (const [input, normalized] of accepted) {
            assert.equal(validated(input), normalized, input);
            assert.ok(cClientAccepts(nativeConnectString(normalized)), `C client parses ${normalized}`);
        }
        assert.equal(cClientAccepts('[::1]:2181'), false, 'the C client alone cannot parse a bracketed IPv6 address');
        assert.equal(cClientAccepts('127.0.0.1:2181 ,localhost:2182'), false, 'nor a blank after a port');
        // Refused although the C client would take them: a typo is likelier than the intent.
        for (const deliberate of ['a:1,,127.0.0.1:2', '127.0.0.1:1,', '127.0.0.1:2181/', '::1:2181', '127.0.0.1:70000', '1.2.3:2181' /* inet_aton: 1.2.0.3 */]) {
            assert.ok(validated(deliberate) instanceof InvalidOptionsError, deliberate);
        }
    });
    it('refuses with InvalidOptionsError what the C client cannot parse', () => {
        const unparsable = ['127.0.0.1', '127.0.0.1:0', '127.0.0.1:02181', '127.0.0.1:0x835', '127.0.0.1:-1', '127.0.0.1:2181/app/',
            '127.0.0.1:2181//a', '[127.0.0.1]:2181', '[::1]', 'no such host:2181', 'a@b:2181', '127.0.0.1127.0.0.1:2181'];
        for (const connect of unparsable) {
            assert.ok(validated(connect) instanceof InvalidOptionsError, `validator refuses ${connect}`);
            if (!connect.includes('[') && !connect.includes(' ') && !connect.includes('@'))
                assert.equal(cClientAccepts(connect), false, `C client refuses ${connect}`);
        }
    });
    it('any string: accepted ones the C client parses, the rest fail with InvalidOptionsError', () => {
        const piece = fc.constantFrom('127.0.0.1', 'localhost', '[::1]', '::1', ':', ',', '/', ' ', '2181', '0', '65536', 'a', '[', ']', '.', '..');
        fc.assert(fc.property(fc.array(piece, { minLength: 1, maxLength: 8 }).map((parts) => parts.join('')), (connect) => {
            const result = validated(connect);
            // Only loopback names go to the C client (it resolves every host; no DNS beyond /etc/hosts).
            const loopback = typeof result === 'string' && result.split('/')[0].split(',').every((entry) => /^(127\.0\.0\.1|localhost|\[::1\]):\d+$/.test(entry));
            if (loopback)
                assert.ok(cClientAccepts(nativeConnectString(result)), `accepted ${JSON.stringify(connect)} but the C client refuses it`);
        }), { numRuns: 400 });
    });
});
//# sourceMappingURL=connect-string.property.test.js.map