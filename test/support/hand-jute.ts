/**
 * Jute by hand, for tests of the TypeScript client: bytes built and read with plain `Buffer`
 * calls, sharing no code with `JuteWriter` / `JuteReader`, so that a round trip through both
 * checks the client against ZooKeeper's encoding (`BinaryOutputArchive`: big-endian ints and
 * longs, a boolean as one byte, a buffer or ustring as an int length then bytes, -1 for null).
 */
import type { ZkStat } from '../../src/zookeeper/types.js';

/** One jute field, in wire order. */
export type HandField =
  | { int: number }
  | { long: bigint }
  | { bool: boolean }
  | { buffer: Buffer | null }
  | { ustring: string }
  /** Bytes as they are, e.g. a nested record or garbage. */
  | { raw: Buffer };

export function handBytes(fields: readonly HandField[]): Buffer {
  const parts = fields.map((field): Buffer => {
    if ('int' in field) return sized(4, (b) => b.writeInt32BE(field.int));
    if ('long' in field) return sized(8, (b) => b.writeBigInt64BE(field.long));
    if ('bool' in field) return Buffer.from([field.bool ? 1 : 0]);
    if ('raw' in field) return field.raw;
    const bytes = 'ustring' in field ? Buffer.from(field.ustring, 'utf8') : field.buffer;
    if (bytes === null) return sized(4, (b) => b.writeInt32BE(-1));
    return Buffer.concat([sized(4, (b) => b.writeInt32BE(bytes.length)), bytes]);
  });
  return Buffer.concat(parts);
}

/** `bytes` behind its 4-byte length, as it travels. */
export function handFrame(bytes: Buffer): Buffer {
  return Buffer.concat([sized(4, (b) => b.writeInt32BE(bytes.length)), bytes]);
}

/** A Stat whose fields are all distinct, so that a field read in the wrong place shows. */
export function sampleStat(seed = 1): ZkStat {
  return {
    czxid: BigInt(seed * 10 + 1),
    mzxid: BigInt(seed * 10 + 2),
    pzxid: BigInt(seed * 10 + 3),
    ctime: seed * 1000 + 4,
    mtime: seed * 1000 + 5,
    version: seed * 10 + 6,
    cversion: seed * 10 + 7,
    aversion: seed * 10 + 8,
    ephemeralOwner: (0x1000n + BigInt(seed)).toString(16),
    dataLength: seed * 10 + 9,
    numChildren: seed * 10 + 10,
  };
}

/** `Stat` in `zookeeper.jute` order: 68 bytes. */
export function statFields(stat: ZkStat): HandField[] {
  return [
    { long: stat.czxid },
    { long: stat.mzxid },
    { long: BigInt(stat.ctime) },
    { long: BigInt(stat.mtime) },
    { int: stat.version },
    { int: stat.cversion },
    { int: stat.aversion },
    { long: BigInt(`0x${stat.ephemeralOwner}`) },
    { int: stat.dataLength },
    { int: stat.numChildren },
    { long: stat.pzxid },
  ];
}

/** Reads fields off a buffer in order; `rest()` is what is left. */
export class HandCursor {
  private at = 0;

  constructor(private readonly bytes: Buffer) {}

  int(): number {
    const value = this.bytes.readInt32BE(this.at);
    this.at += 4;
    return value;
  }

  long(): bigint {
    const value = this.bytes.readBigInt64BE(this.at);
    this.at += 8;
    return value;
  }

  bool(): boolean {
    return this.bytes[this.at++] !== 0;
  }

  buffer(): Buffer | null {
    const length = this.int();
    if (length < 0) return null;
    const value = this.bytes.subarray(this.at, this.at + length);
    if (value.length !== length) throw new Error(`buffer of ${length} bytes runs past the end`);
    this.at += length;
    return value;
  }

  ustring(): string | null {
    return this.buffer()?.toString('utf8') ?? null;
  }

  get remaining(): number {
    return this.bytes.length - this.at;
  }
}

function sized(length: number, fill: (b: Buffer) => void): Buffer {
  const b = Buffer.alloc(length);
  fill(b);
  return b;
}
