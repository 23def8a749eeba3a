import { ZooKeeperProtocolError } from '../../errors/zookeeper-protocol.error.js';
/**
 * Java's client refuses a reply longer than `jute.maxbuffer` (1 MiB - 1 by default,
 * `ZKClientConfig.CLIENT_MAX_PACKET_LENGTH_DEFAULT`); ours allows four times that, so that a
 * lock directory with tens of thousands of waiters can still be listed.
 */
export const DEFAULT_MAX_FRAME_BYTES = 4 * 1024 * 1024;
/**
 * Cuts the byte stream from a server into frames: a 4-byte big-endian length, then that many
 * bytes. A length below zero or above `maxFrameBytes` is refused before anything is allocated
 * for it; partial frames wait for more bytes.
 */
export class FrameDecoder {
    constructor(maxFrameBytes = DEFAULT_MAX_FRAME_BYTES) {
        this.maxFrameBytes = maxFrameBytes;
        this.chunks = [];
        this.buffered = 0;
        this.expected = -1;
    }
    /** Bytes held that do not make a whole frame yet. */
    get pendingBytes() {
        return this.buffered;
    }
    /** Adds bytes from the socket; returns the frames they complete, in order. Throws on a bad length. */
    push(chunk) {
        this.chunks.push(chunk);
        this.buffered += chunk.length;
        const frames = [];
        for (;;) {
            if (this.expected < 0) {
                if (this.buffered < 4)
                    return frames;
                const length = this.take(4).readInt32BE(0);
                if (length < 0 || length > this.maxFrameBytes) {
                    throw new ZooKeeperProtocolError('frame length', `${length} is outside 0 ... ${this.maxFrameBytes}`);
                }
                this.expected = length;
            }
            if (this.buffered < this.expected)
                return frames;
            frames.push(this.take(this.expected));
            this.expected = -1;
        }
    }
    take(bytes) {
        const first = this.chunks[0];
        let out;
        if (first.length >= bytes) {
            out = first.subarray(0, bytes);
            if (first.length === bytes)
                this.chunks.shift();
            else
                this.chunks[0] = first.subarray(bytes);
        }
        else {
            out = Buffer.allocUnsafe(bytes);
            let at = 0;
            while (at < bytes) {
                const chunk = this.chunks[0];
                const used = Math.min(chunk.length, bytes - at);
                chunk.copy(out, at, 0, used);
                at += used;
                if (used === chunk.length)
                    this.chunks.shift();
                else
                    this.chunks[0] = chunk.subarray(used);
            }
        }
        this.buffered -= bytes;
        return out;
    }
}
//# sourceMappingURL=frame-decoder.js.map