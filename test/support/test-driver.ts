/**
 * The driver every session, lock and election test opens its sessions with: `ZK_TEST_DRIVER`
 * (`typescript`, the default, or `native`, the `zookeeper` package's C client). Read here only;
 * CI runs the session/lock/election subset a second time with `ZK_TEST_DRIVER=native` (.ci/run).
 * Child-process fixtures inherit the variable, so they open theirs with the same driver.
 */
import { ZK_DRIVERS, type ZkDriver } from '../../src/zookeeper/open-session-handle.js';

function readDriver(): ZkDriver {
  const value = process.env.ZK_TEST_DRIVER;
  if (value === undefined || value === '') return 'typescript';
  if (!(ZK_DRIVERS as readonly string[]).includes(value)) throw new Error(`ZK_TEST_DRIVER=${value}: expected one of ${ZK_DRIVERS.join(', ')}`);
  return value as ZkDriver;
}

export const TEST_DRIVER: ZkDriver = readDriver();

/** `options` with the test driver, unless they name one (or a simulated `binding`) themselves. */
export function withTestDriver<T extends object>(options: T): T {
  const chosen = options as { readonly driver?: ZkDriver; readonly binding?: unknown };
  return chosen.driver !== undefined || chosen.binding !== undefined ? options : { ...options, driver: TEST_DRIVER };
}
