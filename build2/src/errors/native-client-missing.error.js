import { ZkLockError } from './zk-lock.error.js';
/**
 * The `zookeeper` package (the native binding of the ZooKeeper C client) could not be loaded, so
 * no session can be opened. It is an optional dependency: npm leaves it out when it cannot build it
 * (no python3, make or g++), and the install still succeeds so that unit tests on
 * `nestjs-zk-lock/testing`, which need no native code, run anyway. `cause` is the loader's error.
 */
export class NativeClientMissingError extends ZkLockError {
    constructor(options) {
        const reason = options?.cause instanceof Error ? options.cause.message.split('\n')[0] : String(options?.cause);
        super('ZK_NATIVE_CLIENT_MISSING', `The ZooKeeper native client (npm package \`zookeeper\`) could not be loaded: ${reason}. ` +
            'It builds on install and needs python3, make and g++; npm 11 runs its build only once approved ' +
            '(`npm install-scripts approve zookeeper`). Then run `npm rebuild zookeeper`. ' +
            'Unit tests with nestjs-zk-lock/testing need no native client.', options);
    }
}
//# sourceMappingURL=native-client-missing.error.js.map