import { ZkLockError } from './zk-lock.error.js';
/**
 * No ZooKeeper server completed a TLS handshake with us, and none ever will without a change of
 * configuration: `refusedBy` says which side said no. `client`: we refused the server's
 * certificate (wrong `ca`, a name or IP the certificate does not cover, expired). `server`: the
 * server refused ours (none given where it requires one, or one its trust store does not accept)
 * or spoke no TLS at all on that port. Start-up fails with it at once instead of waiting out the
 * connect timeout; `cause` is Node's TLS error.
 */
export class TlsHandshakeError extends ZkLockError {
    constructor(server, refusedBy, reason, options) {
        super('ZK_TLS_HANDSHAKE', refusedBy === 'client'
            ? `TLS handshake with ZooKeeper at ${server} failed: we refused the server's certificate (${reason}); check the tls option's ca and the server's certificate`
            : `TLS handshake with ZooKeeper at ${server} failed: the server refused it (${reason}); check the tls option's cert and key, and the server's ssl.clientAuth and trust store`, options);
        this.server = server;
        this.refusedBy = refusedBy;
        this.reason = reason;
    }
}
/** Node's codes for a certificate our side would not accept (`tls.TLSSocket` verification errors). */
const CLIENT_REFUSALS = /^(UNABLE_TO_|CERT_|SELF_SIGNED_|DEPTH_ZERO_|ERR_TLS_CERT_ALTNAME|HOSTNAME_MISMATCH|INVALID_CA|PATH_LENGTH_EXCEEDED)/;
/** OpenSSL alerts from the server, or a plain-text answer on what we took for a TLS port. */
const SERVER_REFUSALS = /^ERR_SSL_/;
/** The TLS refusal `error` stands for, or undefined when it is no TLS refusal (a refused TCP connection, a reset). */
export function tlsRefusal(server, error) {
    const code = error.code;
    if (typeof code !== 'string')
        return undefined;
    // OpenSSL's errors carry its whole error queue as the message (source file, line, a trailing
    // newline); Node puts the readable part in `reason`, e.g. 'sslv3 alert bad certificate'.
    const openSslReason = error.reason;
    const reason = `${code}: ${typeof openSslReason === 'string' && openSslReason !== '' ? openSslReason : error.message.trim()}`;
    if (CLIENT_REFUSALS.test(code))
        return new TlsHandshakeError(server, 'client', reason, { cause: error });
    if (SERVER_REFUSALS.test(code))
        return new TlsHandshakeError(server, 'server', reason, { cause: error });
    return undefined;
}
//# sourceMappingURL=tls-handshake.error.js.map