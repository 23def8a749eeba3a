import { ZkLockError } from './zk-lock.error.js';

/** The dev server's `--data` file cannot be read back (not JSON, or not a file the dev server wrote); `problem` says what is wrong. */
export class DevServerDataFileError extends ZkLockError {
  constructor(
    readonly file: string,
    readonly problem: string,
    options?: { cause?: unknown },
  ) {
    super('ZK_DEV_SERVER_DATA_FILE', `The dev server's data file ${file} cannot be loaded: ${problem} (move it away to start empty)`, options);
  }
}
