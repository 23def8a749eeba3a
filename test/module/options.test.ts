/**
 * Module options are validated at start-up: each bad value fails with `InvalidOptionsError` whose
 * `field` names it; good values (multi-host, IPv6, chroot) pass with defaults filled in. Also
 * through `ZkLockModule.forRoot` / `forRootAsync`: a bad option fails the application's init.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Test } from '@nestjs/testing';
import { InvalidOptionsError } from '../../src/errors/invalid-options.error.js';
import { ZkLockError } from '../../src/errors/zk-lock.error.js';
import { ZkLockTestingModule } from '../../src/testing/index.js';
import { ZkLockModule } from '../../src/zk-lock.module.js';
import { ZkSession } from '../../src/zookeeper/supervised-session.js';
import type { ZkLockModuleOptions } from '../../src/zk-lock.options.js';
import { resolveZkLockOptions } from '../../src/zk-lock.options-validator.js';

const GOOD: ZkLockModuleOptions = { connect: '127.0.0.1:2181' };

function assertInvalid(options: unknown, field: string): void {
  assert.throws(
    () => resolveZkLockOptions(options as ZkLockModuleOptions),
    (error: unknown) => {
      assert.ok(error instanceof InvalidOptionsError, `expected InvalidOptionsError for ${JSON.stringify(options)}, got ${String(error)}`);
      assert.ok(error instanceof ZkLockError);
      assert.equal(error.code, 'ZK_INVALID_OPTIONS');
      assert.equal(error.field, field, `field of ${error.message}`);
      assert.ok(error.message.includes(field), 'the message names the field');
      return true;
    },
  );
}

describe('resolveZkLockOptions', () => {
  it('rejects bad connect strings', () => {
    for (const connect of ['', '   ', 'localhost', '127.0.0.1', '127.0.0.1:0', '127.0.0.1:70000', '127.0.0.1:abc',
      'a:1,,b:2', 'a:1,', 'not a host:2181', '::1:2181', '[::1]', 'zk:2181/', 'zk:2181/app/', 'zk:2181/zookeeper']) {
      assertInvalid({ connect }, connect.includes('/') ? 'connect (chroot)' : 'connect');
    }
    for (const connect of [undefined, null, 2181, {}]) assertInvalid({ connect }, 'connect');
    assertInvalid(undefined, 'options');
    assertInvalid(null, 'options');
  });

  it('says how to fix a bad connect string', () => {
    const hints: Array<[string, RegExp]> = [
      ['zk1:2181;zk2:2181', /servers are separated by commas/],
      ['zk1:2181 zk2:2181', /servers are separated by commas/],
      ['a:1,,b:2', /empty server entry.*servers are separated by commas/],
      ['a:1,', /empty server entry.*servers are separated by commas/],
      ['zk1', /"zk1" is not host:port: it has no port; write e\.g\. "zk1:2181"/],
      ['127.0.0.1:0', /port must be 1–65535/],
      ['127.0.0.1:70000', /port must be 1–65535/],
      ['127.0.0.1:abc', /port must be 1–65535/],
      ['zk:02181', /port must be 1–65535.*leading zero/],
      ['::1:2181', /write IPv6 addresses in brackets: \[::1\]:2181/],
      ['[::1]', /has no port/],
      ['999.1.1.1:2181', /not an IPv4 address/],
      ['bad_host!:2181', /not a host name/],
    ];
    for (const [connect, hint] of hints) {
      assert.throws(() => resolveZkLockOptions({ connect }), (error: unknown) => {
        assert.ok(error instanceof InvalidOptionsError, String(error));
        assert.equal(error.field, 'connect');
        assert.match(error.message, hint, `${connect}: ${error.message}`);
        return true;
      });
    }
  });

  it('rejects bad root paths', () => {
    for (const root of ['app', 'app/locks', '/app/', '/', '/.', '/..', '/a/./b', '/a/../b', '//a', '/a//b',
      '/a\u0000b', '/a\u0007', '/a\u007f', '/zookeeper', '/zookeeper/quota', 42, '']) {
      assertInvalid({ ...GOOD, root }, 'root');
    }
  });

  it('rejects bad session timeouts and other numbers', () => {
    for (const sessionTimeoutMs of [1.5, -1, 0, 99, 2 ** 31, Number.NaN, Number.POSITIVE_INFINITY, '3000']) {
      assertInvalid({ ...GOOD, sessionTimeoutMs }, 'sessionTimeoutMs');
    }
    assertInvalid({ ...GOOD, connectTimeoutMs: 0 }, 'connectTimeoutMs');
    assertInvalid({ ...GOOD, drainTimeoutMs: -5 }, 'drainTimeoutMs');
    for (const maxRecordBytes of [0, -1, 1.5, 2 ** 31, '1024', Number.NaN]) assertInvalid({ ...GOOD, maxRecordBytes }, 'maxRecordBytes');
  });

  it('refuses every duration above 2^31-1 ms (Node would fire its timer after 1 ms), naming the value and the maximum', () => {
    for (const field of ['sessionTimeoutMs', 'connectTimeoutMs', 'drainTimeoutMs']) {
      assertInvalid({ ...GOOD, [field]: 2 ** 31 }, field);
      assert.throws(() => resolveZkLockOptions({ ...GOOD, [field]: 2 ** 31 }), /2147483648.*2147483647|2147483647.*2147483648/);
      assert.equal(resolveZkLockOptions({ ...GOOD, [field]: 2 ** 31 - 1 })[field as 'drainTimeoutMs'], 2 ** 31 - 1, `${field} at the maximum`);
    }
    // The session on its own (without the module's validation), and the testing module.
    for (const field of ['sessionTimeoutMs', 'connectTimeoutMs'] as const) {
      const options = { connectString: '127.0.0.1:2181', sessionTimeoutMs: 4000, connectTimeoutMs: 1000, [field]: 2 ** 31 };
      assert.throws(() => new ZkSession(options), (error: unknown) => error instanceof InvalidOptionsError && error.field === field && /2147483647/.test(error.message), `ZkSession ${field}`);
    }
    assert.throws(() => ZkLockTestingModule.forRoot({ drainTimeoutMs: 2 ** 31 }), (error: unknown) => error instanceof InvalidOptionsError && error.field === 'drainTimeoutMs');
  });

  it('refuses unknown options (a typo, an option of another version), naming the key and the nearest known one', () => {
    const refused = (options: unknown, field: string, message: RegExp) =>
      assert.throws(() => resolveZkLockOptions(options as ZkLockModuleOptions), (error: unknown) => {
        assert.ok(error instanceof InvalidOptionsError, `expected InvalidOptionsError for ${JSON.stringify(options)}, got ${String(error)}`);
        assert.equal(error.field, field);
        assert.match(error.message, message);
        return true;
      });
    refused({ ...GOOD, sessionTimeout: 5000 }, 'sessionTimeout', /unknown option 'sessionTimeout'; did you mean 'sessionTimeoutMs'\?/);
    refused({ ...GOOD, conect: 'zk:2181' }, 'conect', /unknown option 'conect'; did you mean 'connect'\?/);
    refused({ ...GOOD, DrainTimeoutMS: 5 }, 'DrainTimeoutMS', /did you mean 'drainTimeoutMs'\?/);
    refused({ ...GOOD, retryPolicy: 'forever' }, 'retryPolicy', /unknown option 'retryPolicy'; known options: connect, root, sessionTimeoutMs/);
    refused({ ...GOOD, election: { joinOnBoot: false } }, 'election.joinOnBoot', /unknown option 'election\.joinOnBoot'; did you mean 'election\.joinOnBootstrap'\?/);
    refused({ ...GOOD, auth: { scheme: 'digest', credential: 'u:p' } }, 'auth.credential', /did you mean 'auth\.credentials'\?/);
    refused({ ...GOOD, auth: [{ scheme: 'digest', credentials: 'u:p', user: 'u' }] }, 'auth[0].user', /unknown option 'auth\[0\]\.user'/);
    refused({ ...GOOD, auth: { scheme: 'digest', credentials: 'u:p' }, acl: [{ perms: 31, scheme: 'auth', id: '', perm: 1 }] }, 'acl[0].perm', /did you mean 'acl\[0\]\.perms'\?/);
    // The module's own options, returned by a forRootAsync factory: said where they belong.
    refused({ ...GOOD, isGlobal: true }, 'isGlobal', /forRootAsync/);
    // The testing module refuses its own typos, and takes ZkLockModule's options (it ignores them) so that one object can serve both.
    assert.throws(() => ZkLockTestingModule.forRoot({ drainTimeout: 5 } as never), (error: unknown) => error instanceof InvalidOptionsError && error.field === 'drainTimeout' && /did you mean 'drainTimeoutMs'\?/.test(error.message));
    assert.doesNotThrow(() => ZkLockTestingModule.forRoot({ connect: '127.0.0.1:2181', sessionTimeoutMs: 6000, identity: 'unit' } as never));
  });

  it('rejects bad auth, log level and identity', () => {
    assertInvalid({ ...GOOD, auth: { credentials: 'u:p' } }, 'auth.scheme');
    assertInvalid({ ...GOOD, auth: { scheme: '', credentials: 'u:p' } }, 'auth.scheme');
    assertInvalid({ ...GOOD, auth: { scheme: 'digest', credentials: 'no-colon' } }, 'auth.credentials');
    assertInvalid({ ...GOOD, auth: { scheme: 'digest', credentials: ':password' } }, 'auth.credentials');
    assertInvalid({ ...GOOD, auth: { scheme: 'digest', credentials: 'user:' } }, 'auth.credentials');
    assertInvalid({ ...GOOD, auth: { scheme: 'digest' } }, 'auth.credentials');
    assertInvalid({ ...GOOD, auth: 'digest:u:p' }, 'auth');
    assertInvalid({ ...GOOD, auth: [{ scheme: 'digest', credentials: 'u:p' }, { scheme: 'digest', credentials: 'bad' }] }, 'auth[1].credentials');
    for (const clientLogLevel of ['verbose', 'INFO', '', 3]) assertInvalid({ ...GOOD, clientLogLevel }, 'clientLogLevel');
    for (const followEnsemble of ['false', 0, 'yes']) assertInvalid({ ...GOOD, followEnsemble }, 'followEnsemble');
    assertInvalid({ ...GOOD, identity: '' }, 'identity');
    assertInvalid({ ...GOOD, identity: 'x'.repeat(1025) }, 'identity');
  });

  it('accepts good options and fills in the defaults', () => {
    const resolved = resolveZkLockOptions(GOOD);
    const { connect, root, sessionTimeoutMs, connectTimeoutMs, auth, clientLogLevel, drainTimeoutMs } = resolved;
    assert.deepEqual(
      { connect, root, sessionTimeoutMs, connectTimeoutMs, auth, clientLogLevel, drainTimeoutMs },
      { connect: '127.0.0.1:2181', root: '/zk-lock', sessionTimeoutMs: 30_000, connectTimeoutMs: 2000 /* under node --test; 15000 elsewhere */, auth: [], clientLogLevel: 'silent', drainTimeoutMs: 10_000 },
    );
    assert.match(resolved.identity, /:\d+$/, 'default identity is <hostname>:<pid>');
    assert.equal(resolved.followEnsemble, true, 'the session follows the ensemble unless told not to');
    assert.equal(resolveZkLockOptions({ ...GOOD, followEnsemble: false }).followEnsemble, false);
    assert.equal(resolved.maxRecordBytes, 512 * 1024, 'records default to 512 KiB, half of jute.maxbuffer');
    assert.equal(resolveZkLockOptions({ ...GOOD, maxRecordBytes: 4096 }).maxRecordBytes, 4096);

    for (const connect of ['zk1:2181,zk2:2181,zk3:2181', '[::1]:2181', '[::1]:2181,127.0.0.1:2182', '127.0.0.1:2181/app',
      'zk1.example.com:2181,zk2.example.com:2181/apps/orders', '10.0.0.1:65535']) {
      assert.equal(resolveZkLockOptions({ connect }).connect, connect);
    }
    const full = resolveZkLockOptions({
      connect: ' zk:2181 ',
      root: '/apps/orders-locks',
      sessionTimeoutMs: 6000,
      auth: [{ scheme: 'digest', credentials: 'app:s3cr:et' }],
      clientLogLevel: 'warn',
      identity: 'worker-1',
      drainTimeoutMs: 0,
    });
    assert.equal(full.connect, 'zk:2181', 'surrounding whitespace is trimmed');
    assert.equal(full.root, '/apps/orders-locks');
    assert.deepEqual(full.auth, [{ scheme: 'digest', credentials: 'app:s3cr:et' }]);
    assert.deepEqual(resolveZkLockOptions({ ...GOOD, auth: { scheme: 'digest', credentials: 'a:b' } }).auth, [{ scheme: 'digest', credentials: 'a:b' }]);
  });
});

describe('ZkLockModule with bad options', () => {
  const silent = { log() {}, error() {}, warn() {} };

  it('fails application init with InvalidOptionsError (forRoot)', async () => {
    await assert.rejects(
      Test.createTestingModule({ imports: [ZkLockModule.forRoot({ connect: '127.0.0.1:2181', root: 'relative' })] }).setLogger(silent).compile(),
      (error: unknown) => error instanceof InvalidOptionsError && error.field === 'root',
    );
  });

  it('fails application init with InvalidOptionsError naming an unknown option (forRoot, forRootAsync); isGlobal and exceptionFilter are forRoot\'s own', async () => {
    const misspelt = (error: unknown) => error instanceof InvalidOptionsError && error.field === 'sessionTimeout' && /did you mean 'sessionTimeoutMs'\?/.test(error.message);
    await assert.rejects(
      Test.createTestingModule({ imports: [ZkLockModule.forRoot({ connect: '127.0.0.1:2181', sessionTimeout: 5000 } as never)] }).setLogger(silent).compile(),
      misspelt,
    );
    await assert.rejects(
      Test.createTestingModule({ imports: [ZkLockModule.forRootAsync({ useFactory: () => ({ connect: '127.0.0.1:2181', sessionTimeout: 5000 }) as never })] }).setLogger(silent).compile(),
      misspelt,
    );
    // The extras never reach the validator: the first problem found is the bad root.
    await assert.rejects(
      Test.createTestingModule({ imports: [ZkLockModule.forRoot({ connect: '127.0.0.1:2181', root: 'relative', isGlobal: true, exceptionFilter: true })] }).setLogger(silent).compile(),
      (error: unknown) => error instanceof InvalidOptionsError && error.field === 'root',
    );
  });

  it('fails application init with InvalidOptionsError (forRootAsync)', async () => {
    await assert.rejects(
      Test.createTestingModule({
        imports: [ZkLockModule.forRootAsync({ useFactory: () => ({ connect: '127.0.0.1:0' }) })],
      }).setLogger(silent).compile(),
      (error: unknown) => error instanceof InvalidOptionsError && error.field === 'connect',
    );
  });
});
