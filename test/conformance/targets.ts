/**
 * The targets every scenario runs on. The first is the reference, the real server: the others'
 * transcripts must equal its. The simulated ZooKeeper's target is appended here.
 */
import type { ConformanceTargetFactory } from './target.js';
import { ZookeeperTarget } from './zookeeper-target.js';

export const targets: readonly ConformanceTargetFactory[] = [{ name: 'zookeeper', start: () => ZookeeperTarget.start() }];
