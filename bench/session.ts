/**
 * The library side of the workloads: a connected `ZkSession` on the driver the workload was given,
 * as W1–W3, W6–W8 and SCALE use it. Kept apart from `workload-main.ts` so that W5 (the raw floor)
 * never loads the library.
 */
import { ZkSession, type ZkDriver, type ZkSessionOptions } from '../src/index.js';

/** What a workload adds to its session: digest auth and the ACL of the nodes it creates (W1A). */
export type SessionSecurity = Pick<ZkSessionOptions, 'auth' | 'acl'>;

/** One library session on `driver`, connected (session timeout as the workload says). */
export async function openSession(connect: string, sessionTimeoutMs: number, driver: ZkDriver, security: SessionSecurity = {}): Promise<ZkSession> {
  const session = new ZkSession({ connectString: connect, sessionTimeoutMs, connectTimeoutMs: 15_000, driver, ...security });
  await session.connect();
  return session;
}
