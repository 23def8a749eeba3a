/** The znode layout under the configured root (DESIGN §2). */
export const znodePaths = {
    lockDir: (root, name) => `${root}/locks/${name}`,
    electionDir: (root, name) => `${root}/elections/${name}`,
    readWriteLockDir: (root, name) => `${root}/rwlocks/${name}`,
    semaphoreDir: (root, name) => `${root}/semaphores/${name}`,
    ready: (dir) => `${dir}/ready`,
};
//# sourceMappingURL=znode-paths.js.map