/**
 * The entry point shared by the workload programs: each runs in a fresh Node process spawned by
 * the driver (`bench/run.ts`) as `node build/bench/<workload>.js --connect host:port [--quick]`,
 * prints exactly one JSON object on the last line of stdout and diagnostics on stderr.
 */
import { MntrProbe } from './mntr.js';
import { benchParams } from './params.js';
export function parseArgs(argv) {
    const args = new Map();
    for (let i = 0; i < argv.length; i++) {
        const arg = argv[i];
        if (!arg.startsWith('--'))
            throw new Error(`unexpected argument ${arg}`);
        const next = argv[i + 1];
        if (next === undefined || next.startsWith('--')) {
            args.set(arg.slice(2), true);
        }
        else {
            args.set(arg.slice(2), next);
            i++;
        }
    }
    return args;
}
/** Runs `body`, prints its result (or `{"error": ...}`) as the last stdout line, and exits. */
export function runWorkload(name, body) {
    const log = (message) => process.stderr.write(`${name}: ${message}\n`);
    const finish = (result, code) => {
        // Pipes are written synchronously on Linux: the line is out before exit. Exiting explicitly
        // keeps a stray handle (a timer, a C client thread) from turning into a hung benchmark.
        process.stdout.write(`${JSON.stringify(result)}\n`);
        process.exit(code);
    };
    void (async () => {
        const args = parseArgs(process.argv.slice(2));
        const connect = args.get('connect');
        if (typeof connect !== 'string')
            throw new Error('--connect host:port is required');
        const quick = args.get('quick') === true;
        return body({ connect, quick, params: benchParams(quick), probe: MntrProbe.fromConnect(connect), log });
    })().then((result) => finish(result, 0), (error) => {
        log(error instanceof Error ? (error.stack ?? error.message) : String(error));
        finish({ error: error instanceof Error ? error.message : String(error) }, 1);
    });
}
/** Rejects after `ms` with a message saying what did not happen (`what`, or what it says then): every wait is bounded. */
export function withTimeout(promise, ms, what) {
    let timer;
    const timeout = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${typeof what === 'string' ? what : what()}`)), ms);
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
//# sourceMappingURL=workload-main.js.map