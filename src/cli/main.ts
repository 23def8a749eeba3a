#!/usr/bin/env node
import { ConnectTimeoutError } from '../errors/connect-timeout.error.js';
import { ZkLockError } from '../errors/zk-lock.error.js';
import { isConnectedState, type SessionState } from '../zookeeper/session-state.js';
import { ZkSession } from '../zookeeper/supervised-session.js';
import { HELP, parseCommandLine, type Command, type HandOverCommand, type InspectCommand, type RequestCommand } from './args.js';
import { runDevServer } from './dev-server-command.js';
import { renderHandOver, sendHandOver } from './hand-over.js';
import { inspect } from './inspect.js';
import { renderText } from './render.js';
import { renderRequest, sendRequest } from './request.js';
import { UsageError } from './usage-error.js';

/**
 * `nestjs-zk-lock inspect`: reads the locks and elections under a root and prints them, once or
 * (`--watch`) until Ctrl-C. Opens one ZooKeeper session, never writes, sets no watch (it polls:
 * a watch per queue node of every lock would cost the ensemble more than one listing a second),
 * and closes the session before it exits.
 *
 * `nestjs-zk-lock release <lock>` / `step-down <election>`: one request to the holder (leader) to
 * let go, through a mark on its queue node (see `request.ts`), then exits.
 *
 * `nestjs-zk-lock hand-over <set> <partition>`: asks a partition's owner to hand it over (see `hand-over.ts`).
 *
 * `nestjs-zk-lock dev-server`: a single-member ZooKeeper for development (see `dev-server-command.ts`).
 */

const CLEAR_SCREEN = '\x1b[2J\x1b[H';
/** Our own session's timeout: only matters for how long the server keeps it after a crash of this CLI. */
const SESSION_TIMEOUT_MS = 10_000;

const EXIT_OK = 0;
const EXIT_FAILED = 1;
const EXIT_USAGE = 2;
/** release / step-down / hand-over: nobody held the lock, took part in the election or owned the partition, so nobody was asked. */
const EXIT_NOBODY_ASKED = 3;

async function main(argv: readonly string[]): Promise<number> {
  let command: Command;
  try {
    command = parseCommandLine(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`nestjs-zk-lock: ${error.message}\nRun "nestjs-zk-lock --help" for usage.\n`);
    return EXIT_USAGE;
  }
  if (command.help) {
    process.stdout.write(HELP);
    return EXIT_OK;
  }
  if (command.command === 'dev-server') return runDevServer(command);
  return run(command);
}

async function run(command: InspectCommand | RequestCommand | HandOverCommand): Promise<number> {
  const session = new ZkSession({
    connectString: command.connect,
    sessionTimeoutMs: SESSION_TIMEOUT_MS,
    connectTimeoutMs: command.connectTimeoutMs,
    auth: command.auth,
    driver: command.driver,
    tls: command.tls,
    clientLogLevel: 'silent',
  });
  const stop = new AbortController();
  const onSignal = () => {
    // A second Ctrl-C does not wait for anything.
    if (stop.signal.aborted) process.exit(130);
    stop.abort();
    // Closing fails whatever request or connection attempt is pending, so the loop below ends at once.
    session.close();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    await session.connect();
    if (command.command === 'hand-over') {
      const outcome = await sendHandOver(session, command);
      process.stdout.write(command.json ? `${JSON.stringify(outcome, null, 2)}\n` : renderHandOver(outcome));
      return outcome.requested ? EXIT_OK : EXIT_NOBODY_ASKED;
    }
    if (command.command !== 'inspect') {
      const outcome = await sendRequest(session, command);
      process.stdout.write(command.json ? `${JSON.stringify(outcome, null, 2)}\n` : renderRequest(outcome));
      return outcome.requested ? EXIT_OK : EXIT_NOBODY_ASKED;
    }
    if (!command.watch) {
      const inspection = await inspect(session, command.root, command.name);
      // Who the server knows us as: whether --auth (or a TLS client certificate) took effect.
      const identities = await session.sessionIdentities();
      process.stdout.write(command.json ? `${JSON.stringify({ ...inspection, identities }, null, 2)}\n` : renderText(inspection, { ...command, identities }));
      return EXIT_OK;
    }
    await watch(session, command, stop.signal);
    return EXIT_OK;
  } catch (error) {
    // Ctrl-C during a connection attempt or a reading: the user asked to stop, nothing failed.
    if (stop.signal.aborted) return command.command === 'inspect' && command.watch ? EXIT_OK : 130;
    if (error instanceof ConnectTimeoutError) {
      // The reason names each server and what reaching it met (refused port, unresolvable host):
      // the one thing the user needs to tell a typo from a server that is down.
      const cause = error.reason ? `: ${error.reason}` : '';
      process.stderr.write(
        `nestjs-zk-lock: could not connect to ZooKeeper at ${command.connect} within ${command.connectTimeoutMs} ms${cause} ` +
          '(is the address right and a server running there? --connect-timeout sets the bound)\n',
      );
      return EXIT_FAILED;
    }
    if (error instanceof ZkLockError) {
      process.stderr.write(`nestjs-zk-lock: ${error.message}\n`);
      return EXIT_FAILED;
    }
    throw error;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    session.close();
  }
}

/**
 * Redraws every `intervalMs` until `signal` aborts. A failed reading (connection lost, session
 * being replaced) is shown and retried at the next tick: the session reconnects by itself.
 * With --json each reading is one line on stdout and failures go to stderr.
 */
async function watch(session: ZkSession, command: InspectCommand, signal: AbortSignal): Promise<void> {
  const redraw = process.stdout.isTTY && !command.json;
  while (!signal.aborted) {
    let frame: string;
    try {
      // While disconnected the client would queue the reading until it reconnects, leaving the
      // last frame on screen as if it were current: say so instead.
      if (!isConnectedState(session.state)) throw new NotConnected(session.state);
      const inspection = await inspect(session, command.root, command.name);
      frame = command.json ? `${JSON.stringify(inspection)}\n` : renderText(inspection, command);
    } catch (error) {
      if (signal.aborted) return;
      if (!(error instanceof ZkLockError) && !(error instanceof NotConnected)) throw error;
      const line = `${new Date().toISOString()} reading failed, retrying every ${command.intervalMs} ms: ${error.message}\n`;
      if (command.json) {
        process.stderr.write(`nestjs-zk-lock: ${line}`);
        frame = '';
      } else {
        frame = `ZooKeeper ${command.connect}  root ${command.root}\n\n${line}`;
      }
    }
    if (redraw) process.stdout.write(CLEAR_SCREEN + frame);
    else if (frame) process.stdout.write(command.json ? frame : `${frame}\n`); // piped text: a blank line between frames
    await sleep(command.intervalMs, signal);
  }
}

class NotConnected extends Error {
  constructor(state: SessionState) {
    super(`not connected to ZooKeeper (session ${state})`);
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`nestjs-zk-lock: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = EXIT_FAILED;
  },
);
