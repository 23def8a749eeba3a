/**
 * One replica of the example app (build/examples/app/main.js) as a child process of the demo:
 * its event lines (stdout) go into the shared `EventStream`, Nest's log (stderr) into
 * `<logDir>/<name>.log`. The demo observes replicas only through those events and HTTP: it never
 * opens a ZooKeeper session of its own (the `zookeeper` package would leak its socket into them).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
const APP_MAIN = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'examples', 'app', 'main.js');
export const now = () => performance.timeOrigin + performance.now();
export class Replica {
    constructor(spec, stream) {
        this.spec = spec;
        this.startedAt = now();
        const log = fs.openSync(this.logFile, 'a');
        const args = ['--connect', spec.connect, '--replica', spec.name, '--port', String(spec.port), '--root', spec.root];
        args.push('--session-timeout', String(spec.sessionTimeoutMs), '--ledger-dir', spec.ledgerDir, '--step-ms', String(spec.stepMs), '--events', 'stdout');
        this.child = spawn(process.execPath, [APP_MAIN, ...args], { stdio: ['ignore', 'pipe', log], env: { ...process.env, NO_COLOR: '1' } });
        fs.closeSync(log);
        let pending = '';
        this.child.stdout.setEncoding('utf8').on('data', (chunk) => {
            const lines = (pending + chunk).split('\n');
            pending = lines.pop();
            for (const line of lines) {
                if (!line.startsWith('{'))
                    continue;
                stream.push(JSON.parse(line));
            }
        });
        this.exited = new Promise((resolve) => {
            this.child.once('exit', (code, signal) => resolve((this.exitInfo = { code, signal })));
            this.child.once('error', () => resolve((this.exitInfo = { code: null, signal: null })));
        });
    }
    get name() {
        return this.spec.name;
    }
    get pid() {
        return this.child.pid;
    }
    get url() {
        return `http://127.0.0.1:${this.spec.port}`;
    }
    get logFile() {
        return path.join(this.spec.logDir, `${this.spec.name}.log`);
    }
    get isAlive() {
        return this.exitInfo === undefined;
    }
    /** SIGKILL: a crash, no goodbye. SIGTERM: `app.close()` through `enableShutdownHooks()`. */
    signal(signal) {
        if (!this.isAlive)
            return;
        if (signal === 'SIGKILL')
            this.killedAt ??= now();
        else
            this.terminatedAt ??= now();
        this.child.kill(signal);
    }
    async waitExit(timeoutMs) {
        if (!this.isAlive)
            return true;
        let timer;
        const timedOut = new Promise((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
        const exited = await Promise.race([this.exited.then(() => true), timedOut]);
        clearTimeout(timer);
        return exited;
    }
    post(route, body) {
        return this.request(route, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    }
    get(route) {
        return this.request(route, { method: 'GET' });
    }
    /** The last lines of Nest's log, for error reports. */
    logTail(lines = 15) {
        try {
            return fs.readFileSync(this.logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
        }
        catch {
            return '(no log)';
        }
    }
    async request(route, init) {
        const response = await fetch(`${this.url}${route}`, { ...init, signal: AbortSignal.timeout(15_000) });
        const text = await response.text();
        return { status: response.status, body: text ? JSON.parse(text) : {} };
    }
}
//# sourceMappingURL=replica.js.map