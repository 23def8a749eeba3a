/**
 * Writes jute records, ZooKeeper's wire encoding (`BinaryOutputArchive`): big-endian ints and
 * longs, a boolean as one byte, a buffer as its int length then its bytes (length -1 for null),
 * a ustring as a buffer of its UTF-8 bytes, a vector as its int count then its items.
 *
 * The first four bytes are reserved for the frame length, filled in by `frame()`.
 */
export class JuteWriter {
    constructor(initialSize = 256) {
        this.at = 4;
        this.bytes = Buffer.allocUnsafe(Math.max(16, initialSize));
    }
    int(value) {
        this.room(4);
        this.at = this.bytes.writeInt32BE(value, this.at);
        return this;
    }
    long(value) {
        this.room(8);
        this.at = this.bytes.writeBigInt64BE(BigInt.asIntN(64, value), this.at);
        return this;
    }
    bool(value) {
        this.room(1);
        this.bytes[this.at++] = value ? 1 : 0;
        return this;
    }
    buffer(value) {
        if (value === null)
            return this.int(-1);
        this.int(value.length);
        this.room(value.length);
        this.at += value.copy(this.bytes, this.at);
        return this;
    }
    ustring(value) {
        const length = Buffer.byteLength(value, 'utf8');
        this.int(length);
        this.room(length);
        this.at += this.bytes.write(value, this.at, 'utf8');
        return this;
    }
    strings(values) {
        this.int(values.length);
        for (const value of values)
            this.ustring(value);
        return this;
    }
    /** Bytes written so far, not counting the reserved length prefix. */
    get length() {
        return this.at - 4;
    }
    /** The record with its 4-byte length prefix, ready for the socket. */
    frame() {
        this.bytes.writeInt32BE(this.at - 4, 0);
        return this.bytes.subarray(0, this.at);
    }
    room(extra) {
        if (this.at + extra <= this.bytes.length)
            return;
        const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.at + extra));
        this.bytes.copy(grown, 0, 0, this.at);
        this.bytes = grown;
    }
}
//# sourceMappingURL=jute-writer.js.map