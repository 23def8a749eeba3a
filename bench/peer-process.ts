/**
 * A peer program (bench/peers/, e.g. Curator's) driven line by line: its stdout lines are read in
 * order with a bounded wait each, its stdin gets the driver's answers, its stderr goes to ours.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import readline from 'node:readline';

export class PeerProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly lines: string[] = [];
  private wake: (() => void) | undefined;
  private exit: string | undefined;
  readonly exited: Promise<number | null>;

  constructor(command: string, args: readonly string[], log: (line: string) => void) {
    this.child = spawn(command, [...args], { stdio: 'pipe' });
    readline.createInterface({ input: this.child.stdout }).on('line', (line) => {
      this.lines.push(line);
      this.wake?.();
    });
    readline.createInterface({ input: this.child.stderr }).on('line', log);
    this.exited = new Promise((resolve, reject) => {
      this.child.once('error', reject);
      this.child.once('close', (code, signal) => {
        this.exit = `exited (${code ?? signal})`;
        this.wake?.();
        resolve(code);
      });
    });
    this.exited.catch((error: unknown) => log(`could not run ${command}: ${String(error)}`));
  }

  /** The next stdout line; rejects after `timeoutMs` or when the program ended without one. */
  async next(timeoutMs: number, what: string): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    while (!this.lines.length) {
      if (this.exit) throw new Error(`the peer ${this.exit} while waiting for ${what}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`the peer printed no ${what} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
    return this.lines.shift()!;
  }

  send(line: string): void {
    this.child.stdin.write(`${line}\n`);
  }

  /** SIGKILL by PID, for a peer that did not finish (every path of the driver ends here or in `exited`). */
  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}
