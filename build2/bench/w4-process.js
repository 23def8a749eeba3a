/**
 * One W4 participant process as the W4 driver sees it: spawned with piped stdio, its
 * `EV <NAME> <id> <epoch-µs> [detail]` lines parsed as they arrive, commands written to stdin,
 * stopped by `quit` and, if still alive after a bound, SIGKILLed by its own PID.
 */
import { spawn } from 'node:child_process';
import readline from 'node:readline';
export class Participant {
    constructor(id, child, log) {
        this.id = id;
        this.child = child;
        /** First epoch-µs timestamp of each event name. */
        this.firstAt = new Map();
        this.waiters = new Set();
        this.leading = false;
        readline.createInterface({ input: child.stdout }).on('line', (line) => this.onLine(line, log));
        readline.createInterface({ input: child.stderr }).on('line', (line) => log(`[${id}] ${line}`));
        this.exited = new Promise((resolve) => child.once('exit', () => { this.notify(); resolve(); }));
        child.stdin.on('error', () => undefined); // writing to a killed process: EPIPE is expected
    }
    static spawn(file, args, id, log) {
        const child = spawn(process.execPath, [file, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
        return new Participant(id, child, log);
    }
    get isLeader() {
        return this.leading;
    }
    get isAlive() {
        return this.child.exitCode === null && this.child.signalCode === null;
    }
    /** Resolves with the epoch-µs of the first `name` event; rejects on timeout or exit without it. */
    waitFor(name, timeoutMs) {
        return new Promise((resolve, reject) => {
            const timer = setTimeout(() => finish(new Error(`${this.id}: no ${name} within ${timeoutMs} ms`)), timeoutMs);
            const check = () => {
                const at = this.firstAt.get(name);
                if (at !== undefined)
                    finish(undefined, at);
                else if (!this.isAlive)
                    finish(new Error(`${this.id} exited (${this.child.exitCode ?? this.child.signalCode}) before ${name}`));
            };
            const finish = (error, at) => {
                clearTimeout(timer);
                this.waiters.delete(check);
                if (error)
                    reject(error);
                else
                    resolve(at);
            };
            this.waiters.add(check);
            check();
        });
    }
    send(command) {
        if (this.isAlive)
            this.child.stdin.write(`${command}\n`);
    }
    /** `kill -9` by PID: a crash, the session is left to expire. */
    kill() {
        if (this.isAlive)
            process.kill(this.child.pid, 'SIGKILL');
    }
    /** `quit`, then SIGKILL (by PID) whatever is still alive after `timeoutMs`. */
    async quit(timeoutMs) {
        if (!this.isAlive)
            return;
        this.send('quit');
        this.child.stdin.end();
        let timer;
        const late = new Promise((resolve) => { timer = setTimeout(() => resolve(true), timeoutMs); });
        if (await Promise.race([this.exited.then(() => false), late]))
            this.kill();
        clearTimeout(timer);
        await this.exited;
    }
    onLine(line, log) {
        const match = /^EV (\S+) (\S+) (\d+)(?: (.*))?$/.exec(line);
        if (!match) {
            log(`[${this.id}] stdout: ${line}`);
            return;
        }
        log(`[${this.id}] ${line}`);
        const [, name, id, at] = match;
        if (id !== this.id)
            log(`[${this.id}] event for another id: ${line}`);
        if (name === 'LEADER')
            this.leading = true;
        if (name === 'NOTLEADER' || name === 'RESIGN' || name === 'CLOSED')
            this.leading = false;
        if (!this.firstAt.has(name))
            this.firstAt.set(name, Number(at));
        this.notify();
    }
    notify() {
        for (const check of [...this.waiters])
            check();
    }
}
//# sourceMappingURL=w4-process.js.map