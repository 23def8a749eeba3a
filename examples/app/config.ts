/**
 * The example app's configuration, from command-line flags or environment variables (flags win):
 *
 *   --connect  ZK_CONNECT             ZooKeeper connect string            127.0.0.1:2181
 *   --replica  REPLICA_ID             this replica's name (its identity)  <hostname>:<pid>
 *   --port     PORT                   HTTP port (on 127.0.0.1)            3000
 *   --root     ZK_ROOT                znode under which locks live        /zk-lock-example
 *   --session-timeout  ZK_SESSION_TIMEOUT_MS                              10000
 *   --events   EVENTS                 `stdout`, a file path, or `off`     off
 *   --ledger-dir  LEDGER_DIR          where the accounts live (shared)    <tmp>/zk-lock-example-ledger
 *   --step-ms  STEP_MS                how long one unit of work takes     400
 *
 * Without --connect or ZK_CONNECT the app connects to 127.0.0.1:2181, where
 * `npx nestjs-zk-lock dev-server` listens by default: no Java needed to try it. The replicas do not
 * start a server themselves, since one of them hosting it would take ZooKeeper down with it.
 */
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

export interface AppConfig {
  readonly connect: string;
  readonly replica: string;
  readonly port: number;
  readonly root: string;
  readonly sessionTimeoutMs: number;
  /** `off`, `stdout` (Nest's own log lines then go to stderr) or a file to append to. */
  readonly events: string;
  readonly ledgerDir: string;
  readonly stepMs: number;
}

/** Injection token of the `AppConfig`. */
export const APP_CONFIG = Symbol('APP_CONFIG');

export function loadConfig(argv: string[] = process.argv.slice(2), env: NodeJS.ProcessEnv = process.env): AppConfig {
  const { values } = parseArgs({
    args: argv,
    options: {
      connect: { type: 'string' },
      replica: { type: 'string' },
      port: { type: 'string' },
      root: { type: 'string' },
      'session-timeout': { type: 'string' },
      events: { type: 'string' },
      'ledger-dir': { type: 'string' },
      'step-ms': { type: 'string' },
    },
  });
  return {
    connect: values.connect ?? env.ZK_CONNECT ?? '127.0.0.1:2181',
    replica: values.replica ?? env.REPLICA_ID ?? `${os.hostname()}:${process.pid}`,
    port: integer('port', values.port ?? env.PORT ?? '3000'),
    root: values.root ?? env.ZK_ROOT ?? '/zk-lock-example',
    sessionTimeoutMs: integer('session-timeout', values['session-timeout'] ?? env.ZK_SESSION_TIMEOUT_MS ?? '10000'),
    events: values.events ?? env.EVENTS ?? 'off',
    ledgerDir: values['ledger-dir'] ?? env.LEDGER_DIR ?? path.join(os.tmpdir(), 'zk-lock-example-ledger'),
    stepMs: integer('step-ms', values['step-ms'] ?? env.STEP_MS ?? '400'),
  };
}

function integer(name: string, raw: string): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name}: expected a whole number, got "${raw}"`);
  return value;
}
