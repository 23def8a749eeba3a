/**
 * One W9 replica in a process of its own, so that W9 can SIGKILL it: a `PartitionSet` on its own
 * session, reporting on stdout what it owns each time that changes.
 *
 *   node build/bench/w9-replica.js --connect HOST:PORT --root PATH --set NAME --count N
 *        --id ID --session-timeout-ms MS [--driver typescript|native]
 *
 * stdout, one event a line: `JOINED <epoch-µs>` when the set was started, and
 * `OWNED <epoch-µs> <member node name, or -> <partitions, comma-separated>` on every change of what
 * it owns (the member name is known before anything is owned). stdin: `quit` or EOF (close the set and the session, exit 0). Logs go to stderr.
 */
import readline from 'node:readline';
import { PartitionSet } from '../src/index.js';
import { parseDriver } from './params.js';
import { openSession } from './session.js';
import { epochMicros } from './stats.js';
import { parseArgs } from './workload-main.js';

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const text = (key: string): string => {
    const value = args.get(key);
    if (typeof value !== 'string') throw new Error(`--${key} is required`);
    return value;
  };
  const session = await openSession(text('connect'), Number(text('session-timeout-ms')), parseDriver(args.get('driver')));
  const logger = { warn: (m: string) => process.stderr.write(`WARN ${m}\n`), error: (m: string) => process.stderr.write(`ERROR ${m}\n`) };
  const set = new PartitionSet(session, { root: text('root'), name: text('set'), count: Number(text('count')), identity: text('id'), logger });
  const out = (line: string) => process.stdout.write(`${line}\n`);
  set.owned$.subscribe((owned) => {
    out(`OWNED ${epochMicros()} ${set.memberId ?? '-'} ${owned.join(',')}`);
  });
  set.start();
  out(`JOINED ${epochMicros()}`);
  const stop = async () => {
    await set.close();
    session.close();
    process.exit(0);
  };
  readline.createInterface({ input: process.stdin }).on('line', (line) => line.trim() === 'quit' && void stop()).on('close', () => void stop());
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
