/**
 * The servers of a connect string, tried in a shuffled order (spreading clients over the
 * ensemble), one after another. After a full round without a session it waits before the next
 * (`StaticHostProvider`: one second), so that a down ensemble costs no tight loop.
 */
export class HostList {
    constructor(hosts, random = Math.random) {
        this.next = 0;
        this.triedSinceConnect = 0;
        this.hosts = [...hosts];
        for (let i = this.hosts.length - 1; i > 0; i--) {
            const j = Math.floor(random() * (i + 1));
            [this.hosts[i], this.hosts[j]] = [this.hosts[j], this.hosts[i]];
        }
    }
    get size() {
        return this.hosts.length;
    }
    /** The next server, and how long to wait before dialing it. */
    take(roundPauseMs = 1000) {
        const address = this.hosts[this.next];
        this.next = (this.next + 1) % this.hosts.length;
        const delayMs = this.triedSinceConnect > 0 && this.triedSinceConnect % this.hosts.length === 0 ? roundPauseMs : 0;
        this.triedSinceConnect += 1;
        return { address, delayMs };
    }
    /** A session was established: the next failure starts a new round. */
    connected() {
        this.triedSinceConnect = 0;
    }
}
/** `h1:p,[::1]:p/chroot` into addresses and the chroot ('' for none). */
export function parseConnectString(connectString) {
    const slash = connectString.indexOf('/');
    const hostPart = slash === -1 ? connectString : connectString.slice(0, slash);
    const chroot = slash === -1 ? '' : connectString.slice(slash).replace(/\/+$/, '');
    const hosts = hostPart
        .split(',')
        .map((entry) => entry.trim())
        .filter((entry) => entry !== '')
        .map((entry) => {
        const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
        if (bracketed)
            return { host: bracketed[1], port: Number(bracketed[2] ?? 2181) };
        // As the C client reads it: the port follows the last colon (so `::1:2181` is `[::1]:2181`).
        const colon = entry.lastIndexOf(':');
        if (colon === -1 || !/^\d+$/.test(entry.slice(colon + 1)))
            return { host: entry, port: 2181 };
        return { host: entry.slice(0, colon), port: Number(entry.slice(colon + 1)) };
    });
    return { hosts, chroot };
}
//# sourceMappingURL=host-list.js.map