/**
 * Runs the external ZooKeeper clients (zkCli.sh, a Java program on Curator, a kazoo script) the
 * dev server is proven against: bounded in time, output collected, stdin scripted.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { withTimeout } from '../support/wait.js';

/** The test sources' folder (the .java and .py scenarios are not compiled into build/). */
export const SCENARIO_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../test/dev-server');

export interface ProcessRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A running child: its output so far, its stdin, and its end (SIGKILLed past `timeoutMs`). */
export class ExternalProcess {
  stdout = '';
  stderr = '';
  readonly exited: Promise<ProcessRun>;
  private readonly child: ChildProcessWithoutNullStreams;

  constructor(command: string, args: readonly string[], timeoutMs: number, env: NodeJS.ProcessEnv = process.env) {
    this.child = spawn(command, [...args], { env, stdio: 'pipe' });
    this.child.stdout.setEncoding('utf8').on('data', (chunk: string) => (this.stdout += chunk));
    this.child.stderr.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk));
    const ended = new Promise<ProcessRun>((resolve, reject) => {
      this.child.once('error', reject);
      this.child.once('close', (code) => resolve({ code, stdout: this.stdout, stderr: this.stderr }));
    });
    this.exited = withTimeout(ended, timeoutMs, `${path.basename(command)} ${args.join(' ')} did not exit within ${timeoutMs} ms`).catch((error: unknown) => {
      this.child.kill('SIGKILL');
      throw new Error(`${(error as Error).message}\nstdout: ${this.stdout.slice(-3000)}\nstderr: ${this.stderr.slice(-3000)}`);
    });
  }

  write(line: string): void {
    this.child.stdin.write(`${line}\n`);
  }

  endInput(): void {
    this.child.stdin.end();
  }

  /** Resolves once stdout matches `pattern` (bounded). */
  async output(pattern: RegExp, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!pattern.test(this.stdout)) {
      if (Date.now() > deadline || this.child.exitCode !== null) {
        throw new Error(`never printed ${pattern} (stdout: ${this.stdout.slice(-3000)}, stderr: ${this.stderr.slice(-3000)})`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** Runs `command` to its end with `input` on stdin. */
export function runProcess(command: string, args: readonly string[], timeoutMs: number, input = ''): Promise<ProcessRun> {
  const child = new ExternalProcess(command, args, timeoutMs);
  if (input) child.write(input);
  child.endInput();
  return child.exited;
}
