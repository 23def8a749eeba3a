/**
 * The chaos run's event logs: one JSON object per line, appended with a synchronous `write(2)` so
 * that a line logged before a SIGKILL is on disk (the page cache survives the process).
 *
 * Every line has `t`: `process.hrtime.bigint()` as a decimal string, i.e. CLOCK_MONOTONIC in ns,
 * which is one clock for all processes of the machine, so lines of different processes can be
 * ordered by it. Tokens (bigint) are written as decimal strings. Readers turn `t` into a Number of
 * ns: exact to ~2 ns for an uptime below 100 days, far finer than anything compared here.
 */
import fs from 'node:fs';
/** Monotonic ns, comparable across the processes of one machine. */
export const monotonicNs = () => process.hrtime.bigint();
export const FAULT_KINDS = [
    'kill-worker',
    'stop-worker',
    'kill-zk-leader',
    'restart-zk-follower',
    'cut-0.5T',
    'cut-1T',
    'cut-1.5T',
    'cut-follower',
    'oversize-checkpoint',
    'block-worker',
    'wipe-ensemble',
];
/** Appends JSON lines to one file; `t` is added to every line. */
export class EventLog {
    constructor(file, base = {}) {
        this.file = file;
        this.base = base;
        this.fd = fs.openSync(file, 'a');
    }
    write(fields) {
        const line = JSON.stringify({ t: monotonicNs(), ...this.base, ...fields }, (_key, value) => typeof value === 'bigint' ? value.toString() : value);
        fs.writeSync(this.fd, `${line}\n`);
    }
    close() {
        fs.closeSync(this.fd);
    }
}
/** Parses a log file; a torn last line (a process killed mid-write) is dropped, any other bad line throws. */
export function readEventLog(file) {
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    const events = [];
    lines.forEach((line, index) => {
        if (line.trim() === '')
            return;
        try {
            const event = JSON.parse(line);
            events.push({ ...event, t: Number(event.t) });
        }
        catch (error) {
            if (index < lines.length - 1 && lines.slice(index + 1).some((rest) => rest.trim() !== '')) {
                throw new Error(`${file}:${index + 1}: not JSON: ${line.slice(0, 200)}`, { cause: error });
            }
        }
    });
    return events;
}
//# sourceMappingURL=event-log.js.map