/**
 * `npm run demo`: starts a throwaway local ZooKeeper with the project's own harness (installing
 * it with apt-get when missing and allowed), boots a Nest application context with
 * ZkLockModule, takes a lock, shows its fencing token, and shuts everything down.
 *
 * `ZK_CONNECT=host:port npm run demo` uses an existing ZooKeeper instead.
 */
import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { LockService, WithLock, ZkLockModule, ZkSession } from '../src/index.js';
import { ZkServer } from '../test/support/zk-server.js';

@Injectable()
class DemoJob {
  constructor(private readonly locks: LockService) {}

  @WithLock('demo-job')
  async run(replica: string): Promise<string> {
    const lock = this.locks.current()!;
    return `${replica} ran under lock "${lock.name}" with fencing token ${lock.fencingToken}`;
  }
}

async function main(): Promise<void> {
  const server = process.env.ZK_CONNECT ? undefined : await ZkServer.start();
  const connect = process.env.ZK_CONNECT ?? server!.connectString;
  console.log(server ? `ZooKeeper started at ${connect} (pid ${server.pid})` : `Using ZooKeeper at ${connect}`);

  @Module({ imports: [ZkLockModule.forRoot({ connect, root: '/zk-lock-demo', sessionTimeoutMs: 5000 })], providers: [DemoJob] })
  class DemoModule {}

  try {
    const app = await NestFactory.createApplicationContext(DemoModule, { logger: ['log', 'warn', 'error'] });
    const session = app.get(ZkSession);
    console.log(`Connected: session 0x${session.sessionId}, state ${session.state}`);
    const job = app.get(DemoJob);
    for (const replica of ['replica-a', 'replica-b', 'replica-a']) console.log(await job.run(replica));
    await app.close();
  } finally {
    await server?.dispose();
  }
  console.log('Done. (The full three-replica demo comes with the demo issue.)');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
