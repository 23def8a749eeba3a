/**
 * Deletes the empty container directories a workload leaves behind, once its figures are taken.
 * Left alone, the server's container sweep (about once a minute) removes them during some later
 * workload and drops `zk_znode_count` under it: SCALE's waiters wait for that count to grow by
 * their number (a sweep in between held them up to their 60 s bound), and W6 counts the znodes
 * it leaves. Since every library workload runs once per driver, the next one follows within
 * seconds. A directory the sweep already took (NONODE) is what we wanted; any other error is not.
 */
export async function removeLeftoverDirs(
  paths: readonly string[],
  remove: (path: string) => Promise<unknown>,
  isNoNode: (error: unknown) => boolean,
  inFlight = 256,
): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(inFlight, paths.length) }, async () => {
    while (next < paths.length) {
      await remove(paths[next++]!).catch((error: unknown) => {
        if (!isNoNode(error)) throw error;
      });
    }
  }));
}

/** NONODE as the npm `zookeeper` package's promise API rejects it (`new Error(`${rc} ${error}`)`, rc -101). */
export const rawNoNode = (error: unknown): boolean => error instanceof Error && error.message.startsWith('-101 ');
