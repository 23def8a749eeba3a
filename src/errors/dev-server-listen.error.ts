import { ZkLockError } from './zk-lock.error.js';

/**
 * The dev server could not listen on `host:port`: the port is taken (`EADDRINUSE`, another
 * ZooKeeper or dev server is there), or not ours to take (`EACCES`), or the host is no address of
 * this machine (`EADDRNOTAVAIL`). `cause` is Node's error.
 */
export class DevServerListenError extends ZkLockError {
  constructor(
    readonly host: string,
    readonly port: number,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super('ZK_DEV_SERVER_LISTEN', `The dev server cannot listen on ${host}:${port}: ${reason}`, options);
  }
}

/** The reason `error` of `listen` gives, in words. */
export function listenFailure(host: string, port: number, error: NodeJS.ErrnoException): DevServerListenError {
  const reason =
    error.code === 'EADDRINUSE'
      ? `port ${port} is in use (another ZooKeeper or dev server? pick another with --port, or --port 0 for a free one)`
      : error.code === 'EACCES'
        ? `no permission to listen on port ${port}`
        : error.code === 'EADDRNOTAVAIL'
          ? `${host} is not an address of this machine`
          : `${error.code ?? 'error'}: ${error.message}`;
  return new DevServerListenError(host, port, reason, { cause: error });
}
