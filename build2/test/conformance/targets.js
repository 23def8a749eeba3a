/**
 * The targets every scenario runs on. The first is the reference, the real server: the others'
 * transcripts must equal its.
 */
import { SimulatorTarget } from './simulator-target.js';
import { ZookeeperTarget } from './zookeeper-target.js';
export const targets = [
    { name: 'zookeeper', start: () => ZookeeperTarget.start() },
    { name: 'simulator', start: () => SimulatorTarget.start() },
];
//# sourceMappingURL=targets.js.map