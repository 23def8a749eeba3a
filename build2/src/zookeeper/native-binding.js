import { NativeClientMissingError } from '../errors/native-client-missing.error.js';
import { requireZooKeeperPackage } from './zookeeper-package.cjs';
/**
 * Loaded lazily so that importing the library never loads native code (see `zookeeper-package.cts`).
 * Throws `NativeClientMissingError` when the package is not installed or did not build.
 */
let ctor;
export function loadNativeZooKeeper() {
    if (!ctor) {
        try {
            ctor = requireZooKeeperPackage();
        }
        catch (error) {
            throw new NativeClientMissingError({ cause: error });
        }
    }
    return ctor;
}
/** Session event type of a watcher callback (`ZOO_SESSION_EVENT`): not a node event. */
export const NATIVE_SESSION_EVENT = -1;
/** `close` event codes of the package. */
export const NATIVE_CLOSE_EXPIRED = -112;
export const NATIVE_CLOSE_AUTH_FAILED = -113;
//# sourceMappingURL=native-binding.js.map