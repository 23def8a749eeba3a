/**
 * The entry point shared by the workload programs: each runs in a fresh Node process spawned by
 * the harness (`bench/run.ts`) as `node build/bench/<workload>.js --connect host:port [--quick]
 * [--driver typescript|native]`, prints exactly one JSON object on the last line of stdout and diagnostics on stderr.
 */
import { MntrProbe } from './mntr.js';
import { benchParams, parseDriver, type BenchDriver, type BenchParams } from './params.js';

export interface WorkloadContext {
  readonly connect: string;
  readonly quick: boolean;
  /** `--driver`: the client the library (or W5's raw floor) talks through; default `typescript`. */
  readonly driver: BenchDriver;
  readonly params: BenchParams;
  readonly probe: MntrProbe;
  /** Every `--flag [value]` the harness passed, for a workload's own (W1's `--auth`). */
  readonly args: ReadonlyMap<string, string | true>;
  log(message: string): void;
}

export function parseArgs(argv: readonly string[]): Map<string, string | true> {
  const args = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) throw new Error(`unexpected argument ${arg}`);
    const next = argv[i + 1];
    if (next === undefined || next.startsWith('--')) {
      args.set(arg.slice(2), true);
    } else {
      args.set(arg.slice(2), next);
      i++;
    }
  }
  return args;
}

/** Runs `body`, prints its result (or `{"error": ...}`) as the last stdout line, and exits. */
export function runWorkload(name: string, body: (ctx: WorkloadContext) => Promise<unknown>): void {
  const log = (message: string) => process.stderr.write(`${name}: ${message}\n`);
  const finish = (result: unknown, code: number) => {
    // Pipes are written synchronously on Linux: the line is out before exit. Exiting explicitly
    // keeps a stray handle (a timer, a C client thread) from turning into a hung benchmark.
    process.stdout.write(`${JSON.stringify(result)}\n`);
    process.exit(code);
  };
  void (async () => {
    const args = parseArgs(process.argv.slice(2));
    const connect = args.get('connect');
    if (typeof connect !== 'string') throw new Error('--connect host:port is required');
    const quick = args.get('quick') === true;
    const driver = parseDriver(args.get('driver'));
    return body({ connect, quick, driver, params: benchParams(quick), probe: MntrProbe.fromConnect(connect), args, log });
  })().then(
    (result) => finish(result, 0),
    (error: unknown) => {
      log(error instanceof Error ? (error.stack ?? error.message) : String(error));
      finish({ error: error instanceof Error ? error.message : String(error) }, 1);
    },
  );
}

/** Rejects after `ms` with a message saying what did not happen (`what`, or what it says then): every wait is bounded. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string | (() => string)): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${typeof what === 'string' ? what : what()}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
