import { parseArgs } from 'node:util';
import { InvalidLockNameError } from '../errors/invalid-lock-name.error.js';
import { InvalidOptionsError } from '../errors/invalid-options.error.js';
import { validateLockName } from '../recipes/lock-name.js';
import { ZK_LOCK_DEFAULTS } from '../zk-lock.options.js';
import { resolveZkLockOptions, validateConnectString, validateZnodePath } from '../zk-lock.options-validator.js';
import type { ZkAuth } from '../zookeeper/types.js';

export const HELP = `Usage: nestjs-zk-lock inspect --connect <host:port[,host:port...][/chroot]> [options] [name]

Shows the locks and elections of nestjs-zk-lock under a root znode: each lock's holder and
waiters and each election's leader and followers in queue order (identity, session, age, node
zxid), and the ready state that crash recovery keeps (ready or dirty, token, holder, checkpoint).
With a name, only the lock and the election of that name.

Options:
  -c, --connect <hosts>       ZooKeeper connect string (required)
  -r, --root <path>           root znode of the application (default ${ZK_LOCK_DEFAULTS.root})
      --json                  print one JSON document instead of text (with --watch: one per line)
  -w, --watch                 redraw until Ctrl-C
      --interval <ms>         refresh interval of --watch (default 1000, from 100 to 3600000)
      --connect-timeout <ms>  give up connecting after this long (default 5000)
      --auth <scheme:creds>   credentials for a root protected by the module's \`auth\`, e.g.
                              digest:app:secret (or set ZK_LOCK_AUTH, which keeps them out of ps)
  -h, --help                  show this help

Exit codes: 0 done, 1 ZooKeeper unreachable or a read failed, 2 bad usage.
`;

/** Bad command line: printed with a pointer to --help, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export interface InspectCommand {
  readonly help: false;
  readonly connect: string;
  readonly root: string;
  readonly name: string | undefined;
  readonly json: boolean;
  readonly watch: boolean;
  readonly intervalMs: number;
  readonly connectTimeoutMs: number;
  readonly auth: readonly ZkAuth[];
}

export type Command = InspectCommand | { readonly help: true };

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
  if (command === undefined) throw new UsageError('missing command (the only one is "inspect")');
  if (command !== 'inspect') throw new UsageError(`unknown command "${command}" (the only one is "inspect")`);
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}" (inspect takes at most one name)`);
  if (values.connect === undefined) throw new UsageError('--connect is required, e.g. --connect 127.0.0.1:2181');
  if (values.interval !== undefined && !values.watch) throw new UsageError('--interval only applies with --watch');
  return {
    help: false,
    connect: check('--connect', () => validateConnectString(values.connect)),
    root: check('--root', () => validateZnodePath('root', values.root ?? ZK_LOCK_DEFAULTS.root)),
    name: name === undefined ? undefined : check(`name ${JSON.stringify(name)}`, () => validateLockName(name)),
    json: values.json ?? false,
    watch: values.watch ?? false,
    intervalMs: milliseconds('--interval', values.interval, 1000, 100, 3_600_000),
    connectTimeoutMs: milliseconds('--connect-timeout', values['connect-timeout'], 5000, 100, 600_000),
    auth: authOf(values.auth ?? env.ZK_LOCK_AUTH),
  };
}

/** `scheme:credentials`, validated as the module validates its `auth` option. */
function authOf(value: string | undefined): readonly ZkAuth[] {
  if (value === undefined || value === '') return [];
  const colon = value.indexOf(':');
  if (colon <= 0) throw new UsageError('--auth: expected scheme:credentials, e.g. digest:app:secret');
  const auth = { scheme: value.slice(0, colon), credentials: value.slice(colon + 1) };
  return check('--auth', () => resolveZkLockOptions({ connect: '127.0.0.1:2181', auth }).auth);
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
