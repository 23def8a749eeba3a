/** The znode layout under the configured root (DESIGN §2). */
export const znodePaths = {
  lockDir: (root: string, name: string) => `${root}/locks/${name}`,
  electionDir: (root: string, name: string) => `${root}/elections/${name}`,
  readWriteLockDir: (root: string, name: string) => `${root}/rwlocks/${name}`,
  semaphoreDir: (root: string, name: string) => `${root}/semaphores/${name}`,
  /** A partition set's directory: its members, assignment, assigner election and partition locks (`PartitionSet`). */
  partitionSetDir: (root: string, name: string) => `${root}/partitions/${name}`,
  ready: (dir: string) => `${dir}/ready`,
};
