/**
 * The targets every scenario runs on. The first is the reference, the real server through the
 * library's default driver (the TypeScript client): the others' transcripts must equal its. The
 * real server through the C client (the optional `native` driver) must agree too, so that a
 * difference between the two drivers shows as a failing conformance test, not in production.
 * The simulator serves both clients too: the simulated C client (`simulator`), and the TypeScript
 * client over simulated sockets, frame by frame (`simulator/typescript`), which is how the
 * simulation runs the default driver. The dev server (`nestjs-zk-lock dev-server`), through either
 * client over TCP, must agree as well.
 */
import { startDevServerTarget } from './dev-server-target.js';
import { SimulatorTarget } from './simulator-target.js';
import type { ConformanceTargetFactory } from './target.js';
import { ZookeeperTarget } from './zookeeper-target.js';

export const targets: readonly ConformanceTargetFactory[] = [
  { name: 'zookeeper/typescript', driver: 'typescript', start: () => ZookeeperTarget.start('zookeeper/typescript', 'typescript') },
  { name: 'zookeeper/native', driver: 'native', start: () => ZookeeperTarget.start('zookeeper/native', 'native') },
  { name: 'simulator', driver: 'native', start: () => SimulatorTarget.start('simulator', 'native') },
  { name: 'simulator/typescript', driver: 'typescript', start: () => SimulatorTarget.start('simulator/typescript', 'typescript') },
  { name: 'dev-server', driver: 'typescript', start: () => startDevServerTarget('dev-server', 'typescript') },
  { name: 'dev-server/native', driver: 'native', start: () => startDevServerTarget('dev-server/native', 'native') },
];
