import { ZkLockError } from './zk-lock.error.js';

/**
 * The `zookeeper` package (the native binding of the ZooKeeper C client) could not be loaded, so
 * no session of `driver: 'native'` can be opened. It is an optional peer dependency, which npm does
 * not install: a project that chooses that driver installs it (it compiles on install: python3,
 * make and g++). The default TypeScript driver needs none of it. `cause` is the loader's error.
 */
export class NativeClientMissingError extends ZkLockError {
  constructor(options?: { cause?: unknown }) {
    const reason = options?.cause instanceof Error ? options.cause.message.split('\n')[0] : String(options?.cause);
    super(
      'ZK_NATIVE_CLIENT_MISSING',
      `The ZooKeeper native client (npm package \`zookeeper\`) could not be loaded: ${reason}. ` +
        "driver: 'native' needs it in your project: `npm install zookeeper@7` (it builds on install: python3, make and g++; " +
        'with npm 11, `npm install-scripts approve zookeeper`, then `npm rebuild zookeeper`). ' +
        "The default driver ('typescript') needs no native client.",
      options,
    );
  }
}
