var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
/**
 * The W4 participant (BENCHMARKS.md "Participant protocol"): one process, one Nest application
 * context with `ZkLockModule.forRoot({ election })`, leadership read from the public
 * `LeaderService`. Any driver can run it next to the Curator and kazoo peers:
 *
 *   node build/bench/w4-participant.js --connect {connect} --path {path} --id {id} --session-timeout-ms {ms}
 *
 * stdout carries only `EV <NAME> <id> <epoch-µs> [detail]` lines; everything else goes to stderr.
 */
import 'reflect-metadata';
import readline from 'node:readline';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { LeaderService, ZkLockModule } from '../src/index.js';
import { epochMicros } from './stats.js';
import { parseArgs } from './workload-main.js';
const ELECTION = 'w4';
const HELP = `W4 participant (nestjs-zk-lock LeaderService in a Nest application context).

Usage: node build/bench/w4-participant.js --connect HOST:PORT --path PATH --id ID --session-timeout-ms MS

  {path} maps onto the library's layout as root = PATH and election name '${ELECTION}', so the
  election's queue nodes are PATH/elections/${ELECTION}/_c_<uuid>-n-<seq> (data = ID).

stdout: EV STARTED|READY|LEADER|NOTLEADER|RESIGN|CLOSED <id> <epoch-microseconds>
  STARTED  the application context is up and the election joined
  READY    participants() shows at least 3 members
  LEADER   isLeader$ emitted true (printed first thing in the subscription)
  NOTLEADER  isLeader$ emitted false, other than by resigning
  RESIGN   just before LeaderService.resign() on the 'resign' command
  CLOSED   the application context (and so the session) is closed; the process exits 0
stdin: 'resign' (resign, close, exit 0), 'quit' or EOF (close, exit 0).
`;
/** Nest logs to stdout by default; the protocol owns stdout, so every log line goes to stderr (with epoch µs). */
const stderrLogger = {
    log: (message) => process.stderr.write(`${epochMicros()} LOG ${String(message)}\n`),
    warn: (message) => process.stderr.write(`${epochMicros()} WARN ${String(message)}\n`),
    error: (message, trace) => process.stderr.write(`${epochMicros()} ERROR ${String(message)}${trace ? `\n${String(trace)}` : ''}\n`),
};
async function main() {
    const args = parseArgs(process.argv.slice(2));
    if (args.has('help')) {
        process.stdout.write(HELP);
        return;
    }
    const [connect, root, id, timeout] = ['connect', 'path', 'id', 'session-timeout-ms'].map((key) => {
        const value = args.get(key);
        if (typeof value !== 'string')
            throw new Error(`--${key} is required (see --help)`);
        return value;
    });
    const ev = (name, detail) => process.stdout.write(`EV ${name} ${id} ${epochMicros()}${detail ? ` ${detail}` : ''}\n`);
    let ParticipantModule = class ParticipantModule {
    };
    ParticipantModule = __decorate([
        Module({ imports: [ZkLockModule.forRoot({ connect, root, sessionTimeoutMs: Number(timeout), identity: id, election: { name: ELECTION } })] })
    ], ParticipantModule);
    const app = await NestFactory.createApplicationContext(ParticipantModule, { logger: stderrLogger, abortOnError: false });
    const leader = app.get(LeaderService);
    let leading = false;
    let resigning = false;
    const subscription = leader.isLeader$.subscribe((isLeader) => {
        if (isLeader && !leading)
            ev('LEADER');
        // Not after RESIGN, which says it already: the delete that hands over goes out right after.
        else if (!isLeader && leading && !resigning)
            ev('NOTLEADER');
        leading = isLeader;
    });
    ev('STARTED');
    let closing;
    const close = (resign) => (closing ??= (async () => {
        if (resign) {
            resigning = true;
            ev('RESIGN');
            await leader.resign();
        }
        subscription.unsubscribe();
        await app.close();
        ev('CLOSED');
        process.exit(0);
    })());
    const fail = (error) => {
        process.stderr.write(`w4-participant: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
        process.exit(1);
    };
    readline
        .createInterface({ input: process.stdin })
        .on('line', (line) => {
        const command = line.trim();
        if (command === 'resign')
            close(true).catch(fail);
        else if (command === 'quit')
            close(false).catch(fail);
        else if (command)
            process.stderr.write(`unknown command ${JSON.stringify(command)}\n`);
    })
        .on('close', () => close(false).catch(fail));
    // READY once the election shows all three members; bounded, and only a few reads per process.
    const deadline = Date.now() + 30_000;
    while (!closing) {
        const members = await leader.participants();
        if (members.length >= 3) {
            ev('READY', String(members.length));
            break;
        }
        if (Date.now() > deadline)
            throw new Error('fewer than 3 participants after 30 s');
        await new Promise((resolve) => setTimeout(resolve, 20));
    }
}
main().catch((error) => {
    process.stderr.write(`w4-participant: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
});
//# sourceMappingURL=w4-participant.js.map