import { lookup } from 'node:dns/promises';
import { createConnection } from 'node:net';
const REASONS = {
    ECONNREFUSED: 'connection refused (no server listens on that port)',
    EHOSTUNREACH: 'host unreachable',
    ENETUNREACH: 'network unreachable',
    ECONNRESET: 'connection reset',
    ETIMEDOUT: 'TCP connection timed out (host down or packets dropped)',
};
/**
 * Reaches each server of `connectString` the way the C client does (getaddrinfo, then a TCP
 * connection to each address) and says what it met, within `timeoutMs` overall.
 *
 * Why not the C client's own reasons: it writes them only to the process's stderr (fd 2) through
 * its log stream, and the `zookeeper` package exposes neither a log callback nor a stream, only the
 * level; so the cause is found again here, once, when the connection attempt has already failed.
 */
export async function diagnoseConnect(connectString, timeoutMs) {
    const slash = connectString.indexOf('/');
    const servers = (slash === -1 ? connectString : connectString.slice(0, slash)).split(',').map((entry) => entry.trim());
    const findings = await Promise.all(servers.map((server) => diagnoseServer(server, timeoutMs)));
    const summary = findings.map((finding) => `${finding.server}: ${finding.reason}`).join('; ');
    const cause = findings.length === 1 ? findings[0].error : new AggregateError(findings.map((f) => f.error), summary);
    return { summary, cause };
}
async function diagnoseServer(server, timeoutMs) {
    // `[::1]:2181` (as validated) or `::1:2181` (the C client's form): the port follows the last colon.
    const colon = server.lastIndexOf(':');
    const host = server.slice(0, colon).replace(/^\[(.*)\]$/, '$1');
    const port = Number(server.slice(colon + 1));
    const deadline = performance.now() + timeoutMs;
    let addresses;
    try {
        addresses = (await bounded(lookup(host, { all: true }), timeoutMs, `getaddrinfo ${host}`)).map((entry) => entry.address);
    }
    catch (error) {
        return { server, reason: `cannot resolve the host name (${message(error)})`, error: asError(error) };
    }
    let last;
    for (const address of addresses) {
        try {
            await bounded(tcpConnect(address, port), Math.max(1, deadline - performance.now()), `connect ${address}:${port}`);
            const reason = 'accepts TCP connections but granted no session (a server not serving yet or out of its quorum, or not ZooKeeper)';
            return { server, reason, error: new Error(`${server} ${reason}`) };
        }
        catch (error) {
            last = error;
        }
    }
    const code = last?.code;
    const reason = code && REASONS[code] ? `${REASONS[code]}, ${message(last)}` : message(last);
    return { server, reason, error: asError(last) };
}
function tcpConnect(host, port) {
    return new Promise((resolve, reject) => {
        const socket = createConnection({ host, port });
        let failure;
        socket.once('connect', () => socket.destroy());
        socket.once('error', (error) => (failure = error));
        // Settled on 'close', once the socket has released everything it held.
        socket.once('close', () => (failure ? reject(failure) : resolve()));
        // A bound elsewhere gave up on us: do not keep the socket (or the process) alive.
        socket.unref();
    });
}
/** `promise`, or an ETIMEDOUT error after `ms`; the timer never keeps the process alive. */
function bounded(promise, ms, what) {
    let timer;
    const timeout = new Promise((_, reject) => {
        timer = setTimeout(() => reject(Object.assign(new Error(`${what}: no answer within ${Math.round(ms)} ms`), { code: 'ETIMEDOUT' })), ms);
        timer.unref();
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
function message(error) {
    return error instanceof Error ? error.message : String(error);
}
function asError(error) {
    return error instanceof Error ? error : new Error(String(error));
}
//# sourceMappingURL=connect-diagnosis.js.map