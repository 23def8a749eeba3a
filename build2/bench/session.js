/**
 * The library side of the workloads: a connected `ZkSession` as W1–W3 and SCALE use it, and the
 * package version for `impl_version`. Kept apart from `workload-main.ts` so that W5 (the raw
 * floor) never loads the library.
 */
import { createRequire } from 'node:module';
import { ZkSession } from '../src/index.js';
/** One library session, connected (session timeout as the workload says). */
export async function openSession(connect, sessionTimeoutMs) {
    const session = new ZkSession({ connectString: connect, sessionTimeoutMs, connectTimeoutMs: 15_000 });
    await session.connect();
    return session;
}
/** The library's package version (for `impl_version`). */
export function implVersion() {
    const require = createRequire(import.meta.url);
    return require('../../package.json').version;
}
//# sourceMappingURL=session.js.map