import { InvalidOptionsError } from '../errors/invalid-options.error.js';
import { ProtocolHandle } from './protocol/protocol-handle.js';
import { ZooKeeperHandle } from './zookeeper-handle.js';
export const ZK_DRIVERS = ['typescript', 'native'];
/** The driver of `options` opens one session (or resumes `resume`). */
export function openSessionHandle(options, events, resume) {
    if (options.binding || options.driver === 'native') {
        if (options.tls)
            throw new InvalidOptionsError('tls', "the 'native' driver (the zookeeper package's C client) cannot speak TLS; use driver 'typescript'");
        return new ZooKeeperHandle(options, events, resume);
    }
    return new ProtocolHandle(options, events, resume);
}
//# sourceMappingURL=open-session-handle.js.map