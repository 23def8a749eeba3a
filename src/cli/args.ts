import { parseArgs } from 'node:util';
import { InvalidLockNameError } from '../errors/invalid-lock-name.error.js';
import { InvalidOptionsError } from '../errors/invalid-options.error.js';
import { validateLockName } from '../recipes/lock-name.js';
import { ZK_LOCK_DEFAULTS } from '../zk-lock.options.js';
import { resolveZkLockOptions, validateConnectString, validateZnodePath } from '../zk-lock.options-validator.js';
import type { ZkDriver } from '../zookeeper/open-session-handle.js';
import type { ZkTlsOptions } from '../zookeeper/protocol/server-link.js';
import type { ZkAuth } from '../zookeeper/types.js';
import { tlsFromFlags } from './tls-files.js';
import { UsageError } from './usage-error.js';

export const HELP = `Usage: nestjs-zk-lock inspect --connect <host:port[,host:port...][/chroot]> [options] [name]
       nestjs-zk-lock release --connect <hosts> [options] <lock>
       nestjs-zk-lock step-down --connect <hosts> [options] <election>
       nestjs-zk-lock hand-over --connect <hosts> [options] <partition set> <partition>
       nestjs-zk-lock dev-server [--port <n>] [--host <address>] [--data <file>]

inspect    Shows the locks and elections of nestjs-zk-lock under a root znode: each lock's holder
           and waiters and each election's leader and followers in queue order (identity,
           session, age, node zxid), and the ready state that crash recovery keeps (ready or
           dirty, token, holder, checkpoint). With a name, only the lock and the election of
           that name.
release    Asks the current holder of a lock to let go: its lease's \`releaseRequested\` signal
           aborts. Cooperative: the holder releases when it reaches a safe point, if it looks;
           nothing is released on its behalf. Prints whom it asked.
step-down  Asks the current leader of an election to step down: it resigns (running leader
           sections get drainTimeoutMs) and joins again at the back, so the next participant
           leads. Prints whom it asked.
hand-over  Asks the replica that owns a partition of a partition set to hand it over: the set's
           assigner moves it to another replica, and the owner lets go once its running work
           ends. Prints whom it asked.
dev-server Runs a single-member ZooKeeper for development and CI, without Java, until Ctrl-C:
           prints its connect string on a line of its own. One member, no replication, no TLS;
           the tree lives in memory, or in the --data file. Not for production.

Options:
  -c, --connect <hosts>       ZooKeeper connect string (required)
  -r, --root <path>           root znode of the application (default ${ZK_LOCK_DEFAULTS.root})
      --json                  print one JSON document instead of text (inspect --watch: one per line)
  -w, --watch                 inspect: redraw until Ctrl-C
      --interval <ms>         inspect: refresh interval of --watch (default 1000, from 100 to 3600000)
      --connect-timeout <ms>  give up connecting after this long (default 5000)
      --auth <scheme:creds>   credentials for a root protected by the module's \`auth\`, e.g.
                              digest:app:secret (or set ZK_LOCK_AUTH, which keeps them out of ps)
      --tls-ca <file>         speak TLS (the servers' secureClientPort), trusting the CA
                              certificates of this PEM file (default: Node's trusted CAs)
      --tls-cert <file>       client certificate (PEM) for servers with ssl.clientAuth need/want;
                              also the identity of x509 ACLs (needs --tls-key)
      --tls-key <file>        private key (PEM) of --tls-cert
      --driver <name>         typescript (default) or native (the zookeeper package; no TLS)
  -p, --port <n>              dev-server: port to listen on (default 2181; 0 picks a free one)
      --host <address>        dev-server: address to listen on (default 127.0.0.1)
      --data <file>           dev-server: keep the persistent nodes in this JSON file (loaded at
                              start, written on change and on exit; default: in memory)
  -h, --help                  show this help

Exit codes: 0 done (release, step-down, hand-over: the holder, leader or owner was asked;
dev-server: stopped by Ctrl-C or SIGTERM), 1 ZooKeeper unreachable or a request failed
(dev-server: it could not listen or load --data), 2 bad usage, 3 (release, step-down, hand-over)
nobody held the lock, took part in the election or owned the partition: nobody was asked.
`;

export interface InspectCommand {
  readonly help: false;
  readonly command: 'inspect';
  readonly connect: string;
  readonly root: string;
  readonly name: string | undefined;
  readonly json: boolean;
  readonly watch: boolean;
  readonly intervalMs: number;
  readonly connectTimeoutMs: number;
  readonly auth: readonly ZkAuth[];
  readonly driver: ZkDriver;
  /** From --tls-ca, --tls-cert, --tls-key; undefined: plain TCP. */
  readonly tls: ZkTlsOptions | undefined;
}

/** `release <lock>` or `step-down <election>`: one request, then exit. */
export interface RequestCommand {
  readonly help: false;
  readonly command: 'release' | 'step-down';
  readonly connect: string;
  readonly root: string;
  /** The lock (release) or election (step-down). */
  readonly name: string;
  readonly json: boolean;
  readonly connectTimeoutMs: number;
  readonly auth: readonly ZkAuth[];
  readonly driver: ZkDriver;
  /** From --tls-ca, --tls-cert, --tls-key; undefined: plain TCP. */
  readonly tls: ZkTlsOptions | undefined;
}

/** `hand-over <set> <partition>`: one request to the partition's owner, then exit. */
export interface HandOverCommand {
  readonly help: false;
  readonly command: 'hand-over';
  readonly connect: string;
  readonly root: string;
  /** The partition set. */
  readonly name: string;
  readonly partition: number;
  readonly json: boolean;
  readonly connectTimeoutMs: number;
  readonly auth: readonly ZkAuth[];
  readonly driver: ZkDriver;
  readonly tls: ZkTlsOptions | undefined;
}

/** `dev-server`: a single-member ZooKeeper on this machine until Ctrl-C. */
export interface DevServerCommand {
  readonly help: false;
  readonly command: 'dev-server';
  readonly host: string;
  readonly port: number;
  /** --data: the JSON file of the persistent nodes; undefined: in memory. */
  readonly dataFile: string | undefined;
}

export type Command = InspectCommand | RequestCommand | HandOverCommand | DevServerCommand | { readonly help: true };

const COMMANDS = '"inspect", "release", "step-down", "hand-over" or "dev-server"';
/** The flags of the commands that talk to a ZooKeeper, which dev-server does not take. */
const CLIENT_FLAGS = ['connect', 'root', 'json', 'watch', 'interval', 'connect-timeout', 'auth', 'tls-ca', 'tls-cert', 'tls-key', 'driver'] as const;
/** The flags of dev-server alone. */
const DEV_SERVER_FLAGS = ['port', 'host', 'data'] as const;

/** Parses `process.argv.slice(2)` (and `ZK_LOCK_AUTH`); throws `UsageError` naming the problem. */
export function parseCommandLine(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Command {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        connect: { type: 'string', short: 'c' },
        root: { type: 'string', short: 'r' },
        json: { type: 'boolean' },
        watch: { type: 'boolean', short: 'w' },
        interval: { type: 'string' },
        'connect-timeout': { type: 'string' },
        auth: { type: 'string' },
        'tls-ca': { type: 'string' },
        'tls-cert': { type: 'string' },
        'tls-key': { type: 'string' },
        driver: { type: 'string' },
        port: { type: 'string', short: 'p' },
        host: { type: 'string' },
        data: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    // parseArgs throws TypeErrors with codes like ERR_PARSE_ARGS_UNKNOWN_OPTION and a readable message.
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help) return { help: true };
  const [command, name, ...extra] = positionals;
  if (command === undefined) throw new UsageError(`missing command (${COMMANDS})`);
  if (command === 'dev-server') return devServerCommand(values, name);
  if (command !== 'inspect' && command !== 'release' && command !== 'step-down' && command !== 'hand-over') throw new UsageError(`unknown command "${command}" (${COMMANDS})`);
  // hand-over takes two names: the set, then the partition.
  const partitionArg = command === 'hand-over' ? extra.shift() : undefined;
  const serverFlag = DEV_SERVER_FLAGS.find((flag) => values[flag] !== undefined);
  if (serverFlag) throw new UsageError(`--${serverFlag} only applies to dev-server`);
  const what = command === 'release' ? 'lock' : command === 'step-down' ? 'election' : command === 'hand-over' ? 'partition set' : undefined;
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}" (${command} takes ${command === 'hand-over' ? 'a partition set and a partition' : what ? `one ${what} name` : 'at most one name'})`);
  if (values.connect === undefined) throw new UsageError('--connect is required, e.g. --connect 127.0.0.1:2181');
  if (what && name === undefined) throw new UsageError(`${command} needs the name of the ${what}, e.g. nestjs-zk-lock ${command} --connect 127.0.0.1:2181 ${command === 'hand-over' ? 'outbox 7' : `my-${what}`}`);
  if (command === 'hand-over' && (partitionArg === undefined || !/^\d{1,9}$/.test(partitionArg))) {
    throw new UsageError(`hand-over needs a partition number after the set, e.g. nestjs-zk-lock hand-over --connect 127.0.0.1:2181 ${name} 7${partitionArg === undefined ? '' : ` (got "${partitionArg}")`}`);
  }
  if (what && (values.watch || values.interval !== undefined)) throw new UsageError(`--watch and --interval only apply to inspect`);
  if (values.interval !== undefined && !values.watch) throw new UsageError('--interval only applies with --watch');
  const common = {
    help: false as const,
    connect: check('--connect', () => validateConnectString(values.connect)),
    root: check('--root', () => validateZnodePath('root', values.root ?? ZK_LOCK_DEFAULTS.root)),
    json: values.json ?? false,
    connectTimeoutMs: milliseconds('--connect-timeout', values['connect-timeout'], 5000, 100, 600_000),
    auth: authOf(values.auth ?? env.ZK_LOCK_AUTH),
    ...driverAndTls(values.driver, tlsFromFlags(values)),
  };
  const validName = name === undefined ? undefined : check(`name ${JSON.stringify(name)}`, () => validateLockName(name));
  if (command === 'hand-over') return { ...common, command, name: validName!, partition: Number(partitionArg) };
  if (command !== 'inspect') return { ...common, command, name: validName! };
  return {
    ...common,
    command,
    name: validName,
    watch: values.watch ?? false,
    intervalMs: milliseconds('--interval', values.interval, 1000, 100, 3_600_000),
  };
}

function devServerCommand(values: Record<string, string | boolean | undefined>, extra: string | undefined): DevServerCommand {
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}" (dev-server takes no name)`);
  const clientFlag = CLIENT_FLAGS.find((flag) => values[flag] !== undefined);
  if (clientFlag) throw new UsageError(`--${clientFlag} does not apply to dev-server (it is the server: clients connect to the address it prints)`);
  const port = values.port === undefined ? '2181' : String(values.port);
  if (!/^\d{1,5}$/.test(port) || Number(port) > 65535) throw new UsageError(`--port: expected a port from 0 to 65535, got "${port}"`);
  const host = values.host === undefined ? '127.0.0.1' : String(values.host);
  if (host === '' || /\s/.test(host)) throw new UsageError(`--host: expected an address, e.g. 127.0.0.1, got "${host}"`);
  const dataFile = values.data === undefined ? undefined : String(values.data);
  if (dataFile === '') throw new UsageError('--data: expected a file name');
  return { help: false, command: 'dev-server', host, port: Number(port), dataFile };
}

/** `scheme:credentials`, validated as the module validates its `auth` option. */
function authOf(value: string | undefined): readonly ZkAuth[] {
  if (value === undefined || value === '') return [];
  const colon = value.indexOf(':');
  if (colon <= 0) throw new UsageError('--auth: expected scheme:credentials, e.g. digest:app:secret');
  const auth = { scheme: value.slice(0, colon), credentials: value.slice(colon + 1) };
  return check('--auth', () => resolveZkLockOptions({ connect: '127.0.0.1:2181', auth }).auth);
}

/** `--driver` and the TLS options, validated by the module's own rules for `driver` and `tls`. */
function driverAndTls(driver: string | undefined, tls: ZkTlsOptions | undefined): { driver: ZkDriver; tls: ZkTlsOptions | undefined } {
  const resolved = check('--driver', () => resolveZkLockOptions({ connect: '127.0.0.1:2181', driver: driver as ZkDriver | undefined, tls }));
  return { driver: resolved.driver, tls: resolved.tls };
}

/** Runs the library's own validation and turns its error into a usage error for `flag`. */
function check<T>(flag: string, validate: () => T): T {
  try {
    return validate();
  } catch (error) {
    if (error instanceof InvalidOptionsError || error instanceof InvalidLockNameError) throw new UsageError(`${flag}: ${error.problem}`);
    throw error;
  }
}

function milliseconds(flag: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const ms = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(ms >= min && ms <= max)) throw new UsageError(`${flag}: expected whole milliseconds from ${min} to ${max}, got "${value}"`);
  return ms;
}
