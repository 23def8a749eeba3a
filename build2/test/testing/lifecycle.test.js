var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
/**
 * What the testing module leaves in a test process: nothing that keeps it alive, whether the test
 * closes the module or forgets to, and never the native ZooKeeper client (issue 17).
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { describe, it } from 'node:test';
import { ZkSession } from '../../src/index.js';
import { ZkLockTestingModule } from '../../src/testing/index.js';
const built = (file) => pathToFileURL(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src', file)).href;
/** Runs `body` in a fresh process with the testing module compiled and initialised as `moduleRef`. */
function runWithModule(body) {
    const script = `
    import 'reflect-metadata';
    import { createRequire } from 'node:module';
    import { Test } from '@nestjs/testing';
    const { LockService, ZkSession } = await import(${JSON.stringify(built('index.js'))});
    const { ZkLockTesting, ZkLockTestingModule } = await import(${JSON.stringify(built('testing/index.js'))});
    const moduleRef = await Test.createTestingModule({ imports: [ZkLockTestingModule.forRoot({ election: {} })] }).compile();
    moduleRef.useLogger(false);
    await moduleRef.init();
    const testing = moduleRef.get(ZkLockTesting);
    await testing.setLeader(true);
    await moduleRef.get(LockService).withLock('job', () => undefined);
    const require = createRequire(import.meta.url);
    const native = Object.keys(require.cache).filter((file) => file.includes('/node_modules/zookeeper/'));
    console.log(JSON.stringify({ native }));
    ${body}
  `;
    // Run from the package root so that the child resolves the same node_modules.
    return spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000, cwd: fileURLToPath(new URL('../../..', import.meta.url)) });
}
describe('ZkLockTestingModule in a test process', () => {
    for (const [what, body] of [
        ['closed', 'await moduleRef.close();'],
        ['never closed', ''],
        ['never closed, after its connection was cut and came back', 'await testing.cutConnection(); await moduleRef.get(ZkSession).waitForConnection();'],
    ]) {
        it(`lets the process exit at once when the module is ${what}, without loading the native client`, () => {
            const started = Date.now();
            const child = runWithModule(body);
            assert.equal(child.status, 0, String(child.stderr));
            assert.ok(Date.now() - started < 10_000, `took ${Date.now() - started} ms`);
            assert.deepEqual(JSON.parse(String(child.stdout).trim().split('\n').at(-1)), { native: [] });
        });
    }
    it("keeps serving while the test's fake timers replace the global ones (as Jest's and Sinon's do)", () => {
        const script = `
      import 'reflect-metadata';
      import { Test } from '@nestjs/testing';
      const { LeaderService, LockService } = await import(${JSON.stringify(built('index.js'))});
      const { ZkLockTesting, ZkLockTestingModule } = await import(${JSON.stringify(built('testing/index.js'))});
      const names = ['setTimeout', 'setInterval', 'setImmediate', 'clearTimeout', 'clearInterval', 'clearImmediate'];
      const real = Object.fromEntries(names.map((name) => [name, globalThis[name]]));
      const never = () => ({ ref() { return this; }, unref() { return this; }, hasRef: () => false, refresh() { return this; } });
      Object.assign(globalThis, { setTimeout: never, setInterval: never, setImmediate: never, clearTimeout() {}, clearInterval() {}, clearImmediate() {} });
      const moduleRef = await Test.createTestingModule({ imports: [ZkLockTestingModule.forRoot({ election: {} })] }).compile();
      moduleRef.useLogger(false);
      await moduleRef.init();
      await moduleRef.get(ZkLockTesting).setLeader(true);
      const token = await moduleRef.get(LockService).withLock('job', (lock) => lock.fencingToken);
      console.log(JSON.stringify({ leading: moduleRef.get(LeaderService).isLeader, token: typeof token }));
      Object.assign(globalThis, real);
      await moduleRef.close();
    `;
        const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000, cwd: fileURLToPath(new URL('../../..', import.meta.url)) });
        assert.equal(child.status, 0, String(child.stderr));
        assert.deepEqual(JSON.parse(String(child.stdout).trim()), { leading: true, token: 'bigint' });
    });
    it('exports the session: a provider of the importing module can inject ZkSession', async () => {
        let SessionUser = class SessionUser {
            constructor(session) {
                this.session = session;
            }
        };
        SessionUser = __decorate([
            Injectable(),
            __metadata("design:paramtypes", [ZkSession])
        ], SessionUser);
        let AppModule = class AppModule {
        };
        AppModule = __decorate([
            Module({ imports: [ZkLockTestingModule.forRoot()], providers: [SessionUser] })
        ], AppModule);
        const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile();
        try {
            const { session } = moduleRef.get(SessionUser);
            assert.equal(session.state, 'connected');
            assert.equal(session.connectString, 'zk1.sim:2181');
        }
        finally {
            await moduleRef.close();
        }
        assert.equal(moduleRef.get(SessionUser).session.state, 'closed');
    });
});
//# sourceMappingURL=lifecycle.test.js.map