/**
 * One replica of the example app (build/examples/app/main.js) as a child process of the demo:
 * its event lines (stdout) go into the shared `EventStream`, Nest's log (stderr) into
 * `<logDir>/<name>.log`. The demo observes replicas only through those events and HTTP: it never
 * opens a ZooKeeper session of its own (the `zookeeper` package would leak its socket into them).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { DemoEvent, EventStream } from './event-stream.js';

const APP_MAIN = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'examples', 'app', 'main.js');

export const now = (): number => performance.timeOrigin + performance.now();

export interface ReplicaSpec {
  readonly name: string;
  readonly port: number;
  readonly connect: string;
  readonly root: string;
  readonly sessionTimeoutMs: number;
  readonly ledgerDir: string;
  readonly logDir: string;
  readonly stepMs: number;
}

export interface HttpReply {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

export class Replica {
  /** When the demo sent SIGKILL / SIGTERM (demo clock), if it did. */
  killedAt: number | undefined;
  terminatedAt: number | undefined;
  readonly startedAt = now();
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private readonly child: ChildProcess;

  constructor(
    readonly spec: ReplicaSpec,
    stream: EventStream,
  ) {
    const log = fs.openSync(this.logFile, 'a');
    const args = ['--connect', spec.connect, '--replica', spec.name, '--port', String(spec.port), '--root', spec.root];
    args.push('--session-timeout', String(spec.sessionTimeoutMs), '--ledger-dir', spec.ledgerDir, '--step-ms', String(spec.stepMs), '--events', 'stdout');
    this.child = spawn(process.execPath, [APP_MAIN, ...args], { stdio: ['ignore', 'pipe', log], env: { ...process.env, NO_COLOR: '1' } });
    fs.closeSync(log);
    let pending = '';
    this.child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        if (!line.startsWith('{')) continue;
        stream.push(JSON.parse(line) as DemoEvent);
      }
    });
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => resolve((this.exitInfo = { code, signal })));
      this.child.once('error', () => resolve((this.exitInfo = { code: null, signal: null })));
    });
  }

  get name(): string {
    return this.spec.name;
  }
  get pid(): number | undefined {
    return this.child.pid;
  }
  get url(): string {
    return `http://127.0.0.1:${this.spec.port}`;
  }
  get logFile(): string {
    return path.join(this.spec.logDir, `${this.spec.name}.log`);
  }
  get isAlive(): boolean {
    return this.exitInfo === undefined;
  }

  /** SIGKILL: a crash, no goodbye. SIGTERM: `app.close()` through `enableShutdownHooks()`. */
  signal(signal: 'SIGKILL' | 'SIGTERM'): void {
    if (!this.isAlive) return;
    if (signal === 'SIGKILL') this.killedAt ??= now();
    else this.terminatedAt ??= now();
    this.child.kill(signal);
  }

  async waitExit(timeoutMs: number): Promise<boolean> {
    if (!this.isAlive) return true;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    const exited = await Promise.race([this.exited.then(() => true as const), timedOut]);
    clearTimeout(timer);
    return exited;
  }

  post(route: string, body: unknown): Promise<HttpReply> {
    return this.request(route, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  }

  get(route: string): Promise<HttpReply> {
    return this.request(route, { method: 'GET' });
  }

  /** The last lines of Nest's log, for error reports. */
  logTail(lines = 15): string {
    try {
      return fs.readFileSync(this.logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
    } catch {
      return '(no log)';
    }
  }

  private async request(route: string, init: RequestInit): Promise<HttpReply> {
    const response = await fetch(`${this.url}${route}`, { ...init, signal: AbortSignal.timeout(15_000) });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  }
}
