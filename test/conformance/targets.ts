/**
 * The targets every scenario runs on. The first is the reference, the real server: the others'
 * transcripts must equal its.
 */
import { SimulatorTarget } from './simulator-target.js';
import type { ConformanceTargetFactory } from './target.js';
import { ZookeeperTarget } from './zookeeper-target.js';

export const targets: readonly ConformanceTargetFactory[] = [
  { name: 'zookeeper', start: () => ZookeeperTarget.start() },
  { name: 'simulator', start: () => SimulatorTarget.start() },
];
