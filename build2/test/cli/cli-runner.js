/** Runs the built CLI (build/src/cli/main.js) as a child process, bounded in time. */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
export const CLI_MAIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/cli/main.js');
/**
 * Starts `nestjs-zk-lock <args>`; it is SIGKILLed after `timeoutMs` (default 10 s).
 * Beware: the child inherits the sockets of sessions open in this process (the `zookeeper`
 * package sets no CLOEXEC), so those sessions must not reconnect while it runs; it runs briefly.
 */
export function startCli(args, timeoutMs = 10_000) {
    const child = spawn(process.execPath, [CLI_MAIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = { stdout: '', stderr: '' };
    child.stdout.setEncoding('utf8').on('data', (chunk) => (output.stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (output.stderr += chunk));
    const exited = new Promise((resolve, reject) => {
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
        exited,
    };
}
/** Runs `nestjs-zk-lock <args>` to its end. */
export function runCli(args, timeoutMs) {
    return startCli(args, timeoutMs).exited;
}
//# sourceMappingURL=cli-runner.js.map