/** The znode layout under the configured root (DESIGN §2). */
export const znodePaths = {
  lockDir: (root: string, name: string) => `${root}/locks/${name}`,
  electionDir: (root: string, name: string) => `${root}/elections/${name}`,
  ready: (dir: string) => `${dir}/ready`,
};

export function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash <= 0 ? '/' : path.slice(0, slash);
}

export function basenameOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
