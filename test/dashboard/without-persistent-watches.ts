import { DriverUnsupportedError } from '../../src/errors/driver-unsupported.error.js';
import type { Watcher } from '../../src/zookeeper/types.js';
import { FaultySession } from '../support/faulty-session.js';

/** A session as the `zookeeper` package's driver is: no persistent watches, so the dashboard falls back to one-shot watches per directory. */
export class WithoutPersistentWatches extends FaultySession {
  override addWatch(path: string, _recursive: boolean, _listener: Watcher): Promise<void> {
    return Promise.reject(new DriverUnsupportedError('addWatch', 'native', path));
  }
}
