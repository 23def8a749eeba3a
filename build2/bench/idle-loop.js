/**
 * An idle process's event-loop delay (a child of LOOP): it does nothing but measure, for
 * `--ms` milliseconds, and prints its `EventLoopDelay` as one JSON line. Run beside a workload,
 * what it sees is the machine's share of every figure (the server and the client competing for
 * the cores), which no client code can remove.
 */
import { watchEventLoop } from './event-loop.js';
import { parseArgs } from './workload-main.js';
const ms = Number(parseArgs(process.argv.slice(2)).get('ms'));
if (!(ms > 0))
    throw new Error('--ms <milliseconds> is required');
const loop = watchEventLoop();
setTimeout(() => process.stdout.write(`${JSON.stringify(loop.stop())}\n`), ms);
//# sourceMappingURL=idle-loop.js.map