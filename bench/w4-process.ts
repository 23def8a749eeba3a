/**
 * One W4 participant process as the W4 driver sees it: spawned with piped stdio, its
 * `EV <NAME> <id> <epoch-µs> [detail]` lines parsed as they arrive, commands written to stdin,
 * stopped by `quit` and, if still alive after a bound, SIGKILLed by its own PID.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import readline from 'node:readline';

export class Participant {
  /** First epoch-µs timestamp of each event name. */
  private readonly firstAt = new Map<string, number>();
  private readonly waiters = new Set<() => void>();
  private readonly exited: Promise<void>;
  private leading = false;

  private constructor(
    readonly id: string,
    private readonly child: ChildProcess,
    log: (message: string) => void,
  ) {
    readline.createInterface({ input: child.stdout! }).on('line', (line) => this.onLine(line, log));
    readline.createInterface({ input: child.stderr! }).on('line', (line) => log(`[${id}] ${line}`));
    this.exited = new Promise((resolve) => child.once('exit', () => { this.notify(); resolve(); }));
    child.stdin!.on('error', () => undefined); // writing to a killed process: EPIPE is expected
  }

  static spawn(file: string, args: string[], id: string, log: (message: string) => void): Participant {
    const child = spawn(process.execPath, [file, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    return new Participant(id, child, log);
  }

  get isLeader(): boolean {
    return this.leading;
  }

  get isAlive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Resolves with the epoch-µs of the first `name` event; rejects on timeout or exit without it. */
  waitFor(name: string, timeoutMs: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => finish(new Error(`${this.id}: no ${name} within ${timeoutMs} ms`)), timeoutMs);
      const check = () => {
        const at = this.firstAt.get(name);
        if (at !== undefined) finish(undefined, at);
        else if (!this.isAlive) finish(new Error(`${this.id} exited (${this.child.exitCode ?? this.child.signalCode}) before ${name}`));
      };
      const finish = (error?: Error, at?: number) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        if (error) reject(error);
        else resolve(at!);
      };
      this.waiters.add(check);
      check();
    });
  }

  send(command: string): void {
    if (this.isAlive) this.child.stdin!.write(`${command}\n`);
  }

  /** `kill -9` by PID: a crash, the session is left to expire. */
  kill(): void {
    if (this.isAlive) process.kill(this.child.pid!, 'SIGKILL');
  }

  /** `quit`, then SIGKILL (by PID) whatever is still alive after `timeoutMs`. */
  async quit(timeoutMs: number): Promise<void> {
    if (!this.isAlive) return;
    this.send('quit');
    this.child.stdin!.end();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => { timer = setTimeout(() => resolve(true), timeoutMs); });
    if (await Promise.race([this.exited.then(() => false), late])) this.kill();
    clearTimeout(timer);
    await this.exited;
  }

  private onLine(line: string, log: (message: string) => void): void {
    const match = /^EV (\S+) (\S+) (\d+)(?: (.*))?$/.exec(line);
    if (!match) {
      log(`[${this.id}] stdout: ${line}`);
      return;
    }
    log(`[${this.id}] ${line}`);
    const [, name, id, at] = match;
    if (id !== this.id) log(`[${this.id}] event for another id: ${line}`);
    if (name === 'LEADER') this.leading = true;
    if (name === 'NOTLEADER' || name === 'RESIGN' || name === 'CLOSED') this.leading = false;
    if (!this.firstAt.has(name!)) this.firstAt.set(name!, Number(at));
    this.notify();
  }

  private notify(): void {
    for (const check of [...this.waiters]) check();
  }
}
