import { ZooKeeperProtocolError } from '../../errors/zookeeper-protocol.error.js';
/**
 * Reads jute records (see `JuteWriter`) from one frame. Every length field is checked against
 * what is left of the frame before anything is allocated, so hostile or garbled bytes can only
 * end in a `ZooKeeperProtocolError`, never in a huge allocation or a read past the end.
 */
export class JuteReader {
    constructor(bytes, 
    /** Named in errors: what this frame was read as. */
    record) {
        this.bytes = bytes;
        this.record = record;
        this.at = 0;
    }
    get remaining() {
        return this.bytes.length - this.at;
    }
    int() {
        this.need(4, 'int');
        const value = this.bytes.readInt32BE(this.at);
        this.at += 4;
        return value;
    }
    long() {
        this.need(8, 'long');
        const value = this.bytes.readBigInt64BE(this.at);
        this.at += 8;
        return value;
    }
    bool() {
        this.need(1, 'boolean');
        return this.bytes[this.at++] !== 0;
    }
    /** A buffer; a null one (length -1) reads as empty, as the Java client hands it to callers. */
    buffer() {
        const length = this.length('buffer');
        if (length < 0)
            return Buffer.alloc(0);
        const value = Buffer.from(this.bytes.subarray(this.at, this.at + length)); // a copy: the frame's memory is reused
        this.at += length;
        return value;
    }
    ustring() {
        const length = this.length('ustring');
        if (length < 0)
            return '';
        const value = this.bytes.toString('utf8', this.at, this.at + length);
        this.at += length;
        return value;
    }
    /** A vector: each item takes at least `minItemBytes`, which bounds a count before the loop. */
    vector(what, minItemBytes, item) {
        const count = this.int();
        if (count < 0)
            return []; // a null vector
        if (count * minItemBytes > this.remaining)
            this.fail(`${what} count ${count} exceeds the ${this.remaining} bytes left`);
        const items = [];
        for (let i = 0; i < count; i++)
            items.push(item());
        return items;
    }
    strings(what) {
        return this.vector(what, 4, () => this.ustring());
    }
    /** The whole frame must have been read: bytes left over mean we misread its type. */
    end() {
        if (this.remaining !== 0)
            this.fail(`${this.remaining} unread bytes at the end`);
    }
    fail(detail) {
        throw new ZooKeeperProtocolError(this.record, detail);
    }
    /** A length field: -1 (null) or 0 ... remaining; anything else is garbage. */
    length(what) {
        const length = this.int();
        if (length < -1)
            this.fail(`negative ${what} length ${length}`);
        if (length > this.remaining)
            this.fail(`${what} length ${length} exceeds the ${this.remaining} bytes left`);
        return length;
    }
    need(bytes, what) {
        if (this.remaining < bytes)
            this.fail(`truncated: ${what} needs ${bytes} bytes, ${this.remaining} left`);
    }
}
//# sourceMappingURL=jute-reader.js.map