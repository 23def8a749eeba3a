import { SIM_ACTOR } from './sim-scheduler.js';
import { ZnodeTree } from './znode-tree.js';
/** One server of the ensemble: a replica of the tree, and the connections of its clients. */
export class Member {
    constructor(id, sequenceStart) {
        this.id = id;
        /** How many log entries this replica has applied. */
        this.applied = 0;
        this.up = true;
        /** Applies nothing before this (a follower lagging behind the leader). */
        this.lagUntil = 0;
        this.connections = new Set();
        /** Replies held until this replica has applied the entry they follow. */
        this.held = [];
        this.host = `zk${id}.sim:2181`;
        this.tree = new ZnodeTree(sequenceStart);
    }
}
/** A client's TCP connection as both ends see it, with a FIFO channel each way. */
export class ServerConnection {
    constructor(member, handle, ensemble) {
        this.member = member;
        this.handle = handle;
        this.ensemble = ensemble;
        this.open = true;
        /** The identities the client authenticated on this connection (digest ids). */
        this.ids = [];
        this.toServerAt = 0;
        this.toClientAt = 0;
        /** Packets (both ways, in order) waiting for the client's partition to end. */
        this.held = [];
        /** The session's requests are answered in order: the next waits until the previous one replied. */
        this.inbox = [];
        this.busy = false;
    }
    /**
     * A packet from the client, delivered after the network delay, in order. TCP loses nothing on a
     * connection that lives: while its client is cut off (`partition`), packets wait and arrive in
     * order when the partition ends, unless one side gives the connection up first.
     */
    send(packet) {
        if (this.hold(() => this.send(packet)))
            return;
        this.toServerAt = this.deliver(this.toServerAt, () => this.ensemble.receive(this, packet), 'packet', SIM_ACTOR);
    }
    /**
     * A packet to the client, delivered after the network delay, in order, as the client's step.
     * Dropped if the connection closes meanwhile, unless `last`: the server's last words, written
     * before it closes the connection (its answer to the handshake of an expired session).
     */
    reply(deliver, last = false) {
        if (this.hold(() => this.reply(deliver, last), last))
            return;
        this.toClientAt = this.deliver(this.toClientAt, deliver, 'reply', this.handle.actor, last);
    }
    /**
     * An identity the client authenticated as. The server keeps each once, however often the
     * client sends it (ServerCnxn's authInfo is a set; the C client sends its credentials again
     * after every handshake), so that an `auth` ACL gets one entry per identity.
     */
    authenticate(id) {
        if (!this.ids.includes(id))
            this.ids.push(id);
    }
    /** Cut off: TCP keeps the packet (and everything behind it, both ways) until the partition ends. */
    hold(resend, last = false) {
        if (!this.open && !last)
            return true; // gone with the connection
        if (this.held.length === 0 && !this.ensemble.isPartitioned(this.handle.actor))
            return false;
        this.held.push(resend);
        this.ensemble.holding(this);
        return true;
    }
    deliver(lastAt, arrive, label, actor, last = false) {
        const s = this.ensemble.scheduler;
        const at = Math.max(s.now + this.ensemble.latency(), lastAt);
        s.schedule(at - s.now, () => (last || this.open) && arrive(), label, actor);
        return at;
    }
    /** The partition ended: what waited goes out, in order. */
    release() {
        for (const resend of this.held.splice(0))
            resend();
    }
    enqueue(packet) {
        this.inbox.push({ packet, receivedAt: this.ensemble.scheduler.now });
        this.pump();
    }
    /** Serves the inbox in order; a write or sync holds the ones behind it until it replied. */
    pump() {
        while (!this.busy && this.open && this.inbox.length > 0) {
            const { packet } = this.inbox.shift();
            this.busy = true;
            this.ensemble.serve(this, packet, () => {
                this.busy = false;
                queueMicrotask(() => this.pump());
            });
        }
    }
    /** Closes the connection at the server; the client is told after the network delay unless `silently`. */
    close(why, silently = false) {
        if (!this.open)
            return;
        this.open = false;
        this.inbox.length = 0;
        this.member.connections.delete(this);
        if (this.session !== undefined)
            this.member.tree.forgetWatches(this.session);
        this.ensemble.scheduler.note(`server ${this.member.id} closes the connection of ${this.handle.describe()}: ${why}`, SIM_ACTOR);
        if (!silently) {
            const s = this.ensemble.scheduler;
            s.schedule(this.ensemble.latency(), () => this.handle.connectionDropped(this), 'disconnect', this.handle.actor);
        }
    }
}
//# sourceMappingURL=server-connection.js.map