/** Runs the built CLI (build/src/cli/main.js) as a child process, bounded in time. */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CLI_MAIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/cli/main.js');

export interface CliRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A running CLI: its output so far, Ctrl-C, and its end. */
export interface CliProcess {
  readonly stdout: string;
  readonly stderr: string;
  /** Sends SIGINT, as Ctrl-C does. */
  interrupt(): void;
  /** Sends SIGTERM, as a process manager does. */
  terminate(): void;
  /** Resolves when the child exited and its output is read; rejects (after SIGKILL) when it outlives the bound. */
  readonly exited: Promise<CliRun>;
}

/**
 * Starts `nestjs-zk-lock <args>`; it is SIGKILLed after `timeoutMs` (default 10 s).
 * Beware: the child inherits the sockets of sessions open in this process (the `zookeeper`
 * package sets no CLOEXEC), so those sessions must not reconnect while it runs; it runs briefly.
 */
export function startCli(args: readonly string[], timeoutMs = 10_000): CliProcess {
  const child = spawn(process.execPath, [CLI_MAIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const output = { stdout: '', stderr: '' };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output.stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output.stderr += chunk));
  const exited = new Promise<CliRun>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`nestjs-zk-lock ${args.join(' ')} did not exit within ${timeoutMs} ms (stdout: ${output.stdout.slice(-500)}, stderr: ${output.stderr})`));
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, ...output });
    });
  });
  return {
    get stdout() { return output.stdout; },
    get stderr() { return output.stderr; },
    interrupt: () => child.kill('SIGINT'),
    terminate: () => child.kill('SIGTERM'),
    exited,
  };
}

/** Runs `nestjs-zk-lock <args>` to its end. */
export function runCli(args: readonly string[], timeoutMs?: number): Promise<CliRun> {
  return startCli(args, timeoutMs).exited;
}
