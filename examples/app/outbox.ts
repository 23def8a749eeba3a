/**
 * The transfers' outbox: every transfer leaves a message to publish, in one of OUTBOX_PARTITIONS
 * partitions by its account (`partitionOf`), as a file in the shared ledger directory. The relay
 * (`outbox.relay.ts`) publishes each partition's messages on the replica that owns it.
 *
 * Publishing is fenced per partition, as the accounts are: a partition remembers the newest token
 * that published from it and refuses an older one, so a relay that lost its partition without
 * noticing (paused past the session timeout) cannot publish behind the new owner's back.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ConflictException, Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from './config.js';

/** The partition set's size: the same on every replica (`partitions` in app.module.ts). */
export const OUTBOX_PARTITIONS = 8;

export interface OutboxMessage {
  readonly id: string;
  readonly account: string;
  readonly amount: number;
}

/** The partition of an account's messages: a stable hash, so that one account's messages keep their order. */
export function partitionOf(account: string): number {
  return createHash('sha1').update(account).digest().readUInt32BE(0) % OUTBOX_PARTITIONS;
}

@Injectable()
export class Outbox {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    for (let k = 0; k < OUTBOX_PARTITIONS; k++) fs.mkdirSync(this.dir(k, 'pending'), { recursive: true });
  }

  /** Leaves a message for the relay (call it where the transfer is written). */
  add(message: OutboxMessage): void {
    const file = path.join(this.dir(partitionOf(message.account), 'pending'), `${message.id}.json`);
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(message));
    fs.renameSync(`${file}.tmp`, file);
  }

  /** The partition's messages not published yet, oldest first. */
  pending(partition: number): OutboxMessage[] {
    const dir = this.dir(partition, 'pending');
    return fs
      .readdirSync(dir)
      .filter((name) => name.endsWith('.json'))
      .sort()
      .map((name) => JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as OutboxMessage);
  }

  /** Publishes `message` under the partition's fencing token: refused for a token older than the newest seen. */
  publish(partition: number, message: OutboxMessage, fencingToken: bigint): void {
    const tokenFile = path.join(this.dir(partition), 'token');
    const newest = fs.existsSync(tokenFile) ? BigInt(fs.readFileSync(tokenFile, 'utf8')) : 0n;
    if (fencingToken < newest) throw new ConflictException(`stale fencing token ${fencingToken}: outbox partition ${partition} was published under ${newest}`);
    fs.writeFileSync(tokenFile, fencingToken.toString());
    // "Publishing" is moving the message to published/: a real relay sends it to its broker here,
    // with the token, and a message sent twice (a relay that died after sending) is told apart by its id.
    fs.renameSync(path.join(this.dir(partition, 'pending'), `${message.id}.json`), path.join(this.dir(partition), `published-${message.id}.json`));
  }

  private dir(partition: number, sub?: 'pending'): string {
    return path.join(this.config.ledgerDir, 'outbox', String(partition), ...(sub ? [sub] : []));
  }
}
