import net from 'node:net';
import tls from 'node:tls';
/** Dials over TCP, or over TLS when `tlsOptions` is given. */
export function socketDialer(tlsOptions) {
    return (address, events) => {
        const socket = tlsOptions
            ? tls.connect({ ...tlsOptions, host: address.host, port: address.port, servername: tlsOptions.servername ?? tlsServername(address.host) })
            : net.connect({ host: address.host, port: address.port });
        socket.setNoDelay(true);
        let ended = false;
        const end = (error) => {
            if (ended)
                return;
            ended = true;
            events.closed(error);
        };
        socket.once(tlsOptions ? 'secureConnect' : 'connect', () => events.opened());
        socket.on('data', (chunk) => events.data(chunk));
        socket.once('error', (error) => end(error));
        socket.once('close', () => end());
        // Frames sent in one tick leave in one write (writev): a lock's pipelined requests, or many
        // callers' at once, cost one system call instead of one each.
        let corked = false;
        const uncork = () => {
            corked = false;
            socket.uncork();
        };
        return {
            send: (frame) => {
                if (!corked) {
                    corked = true;
                    socket.cork();
                    process.nextTick(uncork);
                }
                socket.write(frame);
            },
            close: () => {
                socket.destroy();
                end();
            },
        };
    };
}
/** SNI carries host names only: an IP address gives none (RFC 6066), and Node warns about it. */
function tlsServername(host) {
    return net.isIP(host) ? undefined : host;
}
//# sourceMappingURL=server-link.js.map