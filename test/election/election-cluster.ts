/**
 * Runs election participants as separate OS processes (build/test/fixtures/election-node.js),
 * collects their JSON events, and checks leadership intervals across them. Every wait is bounded;
 * every process is SIGKILLed at the end of the test (or of this process) if still alive.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FixtureConfig } from '../fixtures/election-node.js';
import { waitFor, withTimeout } from '../support/wait.js';

export interface ElectionEvent {
  readonly ev: string;
  readonly t: number;
  readonly [key: string]: unknown;
}

const fixture = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'election-node.js');

export const sharedConnect = (): string => {
  const connect = process.env.ZK_TEST_CONNECT;
  if (!connect) throw new Error('ZK_TEST_CONNECT is not set: run the tests through scripts/run-tests.mjs');
  return connect;
};

export const testRoot = (): string => `/t-${randomUUID()}`;

/** One participant process. */
export class Participant {
  readonly events: ElectionEvent[] = [];
  private stderr = '';
  private exitedWith: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  /** When the test SIGKILLed it: a dead process leads no more, whatever it reported last. */
  killedAt: number | undefined;
  readonly exited: Promise<void>;

  constructor(
    readonly name: string,
    private readonly child: ChildProcess,
  ) {
    let pending = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) if (line.trim()) this.events.push(JSON.parse(line) as ElectionEvent);
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk));
    this.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(void (this.exitedWith = { code, signal }))));
  }

  get pid(): number {
    return this.child.pid!;
  }

  get isAlive(): boolean {
    return this.exitedWith === undefined;
  }

  /** The `ready` event's session id (hex, as ZooKeeper's logs print it after `0x`). */
  get firstSessionId(): string {
    return String(this.events.find((e) => e.ev === 'ready')!.sessionId);
  }

  /** Events named `ev` (and matching `where`), in order. */
  all(ev: string, where: (event: ElectionEvent) => boolean = () => true): ElectionEvent[] {
    return this.events.filter((event) => event.ev === ev && where(event));
  }

  /** The last `leader` value reported (false before any). */
  get isLeader(): boolean {
    return (this.all('leader').at(-1)?.value as boolean | undefined) ?? false;
  }

  send(command: string): void {
    this.child.stdin!.write(`${command}\n`);
  }

  signal(signal: NodeJS.Signals): void {
    if (!this.isAlive) return;
    if (signal === 'SIGKILL') this.killedAt ??= Date.now();
    this.child.kill(signal);
  }

  /** Waits for the first event named `ev` (matching `where`) at index >= `from`. */
  async waitFor(ev: string, { where = () => true, from = 0, timeoutMs = 15_000 }: { where?: (e: ElectionEvent) => boolean; from?: number; timeoutMs?: number } = {}): Promise<ElectionEvent> {
    return waitFor(() => this.events.slice(from).find((event) => event.ev === ev && where(event)), {
      timeoutMs,
      intervalMs: 10,
      message: `${this.name}: event ${ev} (events: ${this.describe()})${this.isAlive ? '' : ` [exited ${JSON.stringify(this.exitedWith)}]`}\n${this.stderr.slice(-3000)}`,
    });
  }

  describe(): string {
    return this.events
      .filter((e) => e.ev !== 'work')
      .map((e) => `${e.ev}${e.value !== undefined ? `=${String(e.value)}` : ''}${e.state ? `:${String(e.state)}` : ''}`)
      .join(' ');
  }

  /** Graceful stop: `quit` (app.close()), then waits for the exit. */
  async quit(timeoutMs = 15_000): Promise<void> {
    if (!this.isAlive) return;
    this.send('quit');
    await waitFor(() => !this.isAlive, { timeoutMs, message: `${this.name} exits after quit` });
  }

  kill(): void {
    this.signal('SIGKILL');
  }

  get log(): string {
    return this.stderr;
  }
}

/** The participants of one test; `dispose()` kills whatever is still running. */
export class Cluster {
  readonly participants: Participant[] = [];

  constructor(private readonly base: Omit<FixtureConfig, 'identity'>) {}

  /** Starts a participant and waits until its app is bootstrapped (it has joined the election). */
  async start(name: string, overrides: Partial<FixtureConfig> = {}): Promise<Participant> {
    const config: FixtureConfig = { ...this.base, identity: name, ...overrides };
    const child = spawn(process.execPath, [fixture, JSON.stringify(config)], { stdio: ['pipe', 'pipe', 'pipe'] });
    const participant = new Participant(name, child);
    this.participants.push(participant);
    await participant.waitFor('ready', { timeoutMs: 20_000 });
    return participant;
  }

  /** Waits until exactly one live participant (of `among`) reports leadership; returns it. */
  async leader(among: Participant[] = this.participants, timeoutMs = 15_000): Promise<Participant> {
    return waitFor(
      () => {
        const leaders = among.filter((p) => p.isAlive && p.isLeader);
        return leaders.length === 1 ? leaders[0] : undefined;
      },
      { timeoutMs, intervalMs: 10, message: `one leader among ${among.map((p) => `${p.name}[${p.describe()}]`).join(', ')}` },
    );
  }

  async dispose(): Promise<void> {
    for (const participant of this.participants) participant.kill();
    await withTimeout(Promise.all(this.participants.map((p) => p.exited)), 10_000, 'participants exit after SIGKILL');
  }
}

export interface Interval {
  readonly who: string;
  readonly start: number;
  readonly end: number;
}

/**
 * Leadership intervals of a participant from its `leader` events: from each `true` to the next
 * `false` (or `until` when it still leads). With `acting`, an interval ends instead at the last
 * `work` heartbeat before that `false`: what the process did as leader. A SIGKILLed process's
 * last interval ends when it was killed. A process frozen by
 * SIGSTOP can report nothing until it runs again, so that is the measure that matters for it.
 */
export function intervals(participant: Participant, until: number, acting = false): Interval[] {
  const result: Interval[] = [];
  let start: number | undefined;
  for (const event of participant.events) {
    if (event.ev !== 'leader') continue;
    if (event.value === true && start === undefined) start = event.t;
    else if (event.value === false && start !== undefined) {
      result.push({ who: participant.name, start, end: acting ? lastWork(participant, start, event.t) : event.t });
      start = undefined;
    }
  }
  if (start !== undefined) {
    const end = Math.min(until, participant.killedAt ?? until);
    result.push({ who: participant.name, start, end: acting ? lastWork(participant, start, end) : end });
  }
  return result;
}

function lastWork(participant: Participant, from: number, to: number): number {
  const works = participant.all('work', (e) => e.t >= from && e.t <= to);
  return works.at(-1)?.t ?? from;
}

/** No two intervals of different participants overlap. Returns how many intervals were compared. */
export function assertNoOverlap(all: Interval[]): number {
  const sorted = [...all].sort((a, b) => a.start - b.start);
  for (let i = 1; i < sorted.length; i++) {
    const previous = sorted[i - 1]!;
    const current = sorted[i]!;
    assert.ok(
      previous.end <= current.start,
      `leadership of ${previous.who} [${previous.start}, ${previous.end}] overlaps ${current.who} [${current.start}, ${current.end}] by ${(previous.end - current.start).toFixed(1)} ms`,
    );
  }
  return sorted.length;
}
