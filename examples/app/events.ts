/**
 * Structured event lines for whoever watches this replica (the demo driver does): one JSON object
 * per line, `{"t":<epoch ms>,"replica":"...","ev":"...",...}`. `t` comes from the same clock in
 * every process of a machine, so the events of several replicas can be merged into one timeline.
 *
 * Events: ready, leader {value, token}, tick {token}, leader-recovery {holder, token, running},
 * batch-started {batch, token, from, total}, batch-checkpoint {batch, token, settled, total},
 * batch-finished {batch, token}, batch-skipped {batch, token} (it had finished before),
 * batch-recovered {batch, holder, token, settled, total},
 * transfer {account, amount, token, start, end, balance}, partitions {owned} (the outbox partitions
 * this replica owns), relayed {partition, message, token}, relay-recovery {partition, holder, token,
 * lastPublished}, stopped. Tokens are decimal strings.
 */
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from './config.js';

export type EventFields = Record<string, unknown>;

/** Wall-clock milliseconds with sub-millisecond precision. */
export const now = (): number => performance.timeOrigin + performance.now();

@Injectable()
export class EventLog implements OnApplicationShutdown {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  emit(ev: string, fields: EventFields = {}): void {
    if (this.config.events === 'off') return;
    const line = `${JSON.stringify({ t: now(), replica: this.config.replica, ev, ...fields }, bigintAsString)}\n`;
    // Both synchronous (stdout is, when it is a file or a pipe): the line is out before the next
    // statement, so a replica killed right after an event has reported it.
    if (this.config.events === 'stdout') process.stdout.write(line);
    else fs.appendFileSync(this.config.events, line);
  }

  /** Runs after every `beforeApplicationShutdown` hook: leadership and locks are handed over by now. */
  onApplicationShutdown(signal?: string): void {
    this.emit('stopped', { signal });
  }
}

function bigintAsString(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}
