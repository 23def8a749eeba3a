import { isIPv4, isIPv6 } from 'node:net';
import { hostname } from 'node:os';
import { describeValue } from './errors/describe-value.js';
import { validateDuration } from './errors/duration-option.js';
import { InvalidLockNameError } from './errors/invalid-lock-name.error.js';
import { InvalidOptionsError } from './errors/invalid-options.error.js';
import { refuseUnknownKeys } from './errors/known-keys.js';
import { DuplicatePartitionSetError } from './errors/duplicate-partition-set.error.js';
import { InvalidPartitionCountError } from './errors/invalid-partition-count.error.js';
import { validateLockName } from './recipes/lock-name.js';
import { znodePaths } from './recipes/znode-paths.js';
import { TEST_RUNNER_CONNECT_TIMEOUT_MS, testRunnerOf } from './zk-lock.test-runner.js';
import { ZK_LOCK_DEFAULTS, type ResolvedZkLockOptions, type ZkLockElectionOptions, type ZkLockModuleOptions, type ZkLockPartitionOptions } from './zk-lock.options.js';
import { CREATOR_ALL_ACL, ZK_PERMS, type ZkAcl, type ZkAuth } from './zookeeper/types.js';
import { ZK_DRIVERS, type ZkDriver } from './zookeeper/open-session-handle.js';
import type { ZkTlsOptions } from './zookeeper/protocol/server-link.js';
import type { ClientLogLevel } from './zookeeper/zookeeper-handle.js';

const LOG_LEVELS: readonly ClientLogLevel[] = ['silent', 'error', 'warn', 'info', 'debug'];
const MAX_INT32 = 2_147_483_647;
// Same rule ZooKeeper's PathUtils applies, plus control characters, which it also refuses.
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f\ud800-\uf8ff\ufff0-\uffff]/;

// Every key of each options type: `satisfies` makes the compiler check the list both ways, so a new option cannot be refused as unknown.
/** The keys of `ZkLockModuleOptions`, in the order the README lists them. */
export const ZK_LOCK_OPTION_KEYS: readonly string[] = Object.keys({
  connect: 1, root: 1, sessionTimeoutMs: 1, connectTimeoutMs: 1, auth: 1, acl: 1, identity: 1, drainTimeoutMs: 1, election: 1, partitions: 1, maxRecordBytes: 1, tls: 1, driver: 1, clientLogLevel: 1, followEnsemble: 1,
} satisfies Record<keyof ZkLockModuleOptions, 1>);
const ELECTION_KEYS = Object.keys({ name: 1, joinOnBootstrap: 1, suspendPolicy: 1, warmUpHandOver: 1 } satisfies Record<keyof ZkLockElectionOptions, 1>);
const PARTITION_KEYS = Object.keys({ name: 1, count: 1, capacity: 1 } satisfies Record<keyof ZkLockPartitionOptions, 1>);
const AUTH_KEYS = Object.keys({ scheme: 1, credentials: 1 } satisfies Record<keyof ZkAuth, 1>);
const ACL_KEYS = Object.keys({ perms: 1, scheme: 1, id: 1 } satisfies Record<keyof ZkAcl, 1>);
/** The module's own options (`ZkLockModuleExtras`): `forRoot` takes them out before validation; a `forRootAsync` factory must not return them. */
const EXTRA_HINT = 'it shapes the module, so it goes to forRoot / forRootAsync itself (beside useFactory), not into the options a forRootAsync factory returns';

/**
 * Validates module options at start-up and fills in defaults; throws `InvalidOptionsError` naming
 * the field, also for an unknown one (a typo would otherwise leave its default in force unseen).
 */
export function resolveZkLockOptions(options: ZkLockModuleOptions | undefined): ResolvedZkLockOptions {
  if (options === null || typeof options !== 'object') {
    throw new InvalidOptionsError('options', 'expected an object with at least `connect`');
  }
  refuseUnknownKeys(options, ZK_LOCK_OPTION_KEYS, '', { isGlobal: EXTRA_HINT, exceptionFilter: EXTRA_HINT });
  const auth = validateAuth(options.auth);
  return {
    connect: validateConnectString(options.connect),
    root: validateZnodePath('root', options.root ?? ZK_LOCK_DEFAULTS.root),
    sessionTimeoutMs: validateDuration('sessionTimeoutMs', options.sessionTimeoutMs ?? ZK_LOCK_DEFAULTS.sessionTimeoutMs, { min: 100, integer: true }),
    connectTimeoutMs: validateDuration('connectTimeoutMs', options.connectTimeoutMs ?? defaultConnectTimeoutMs(), { min: 1, integer: true }),
    auth,
    acl: validateAcl(options.acl, auth),
    clientLogLevel: validateLogLevel(options.clientLogLevel ?? ZK_LOCK_DEFAULTS.clientLogLevel),
    followEnsemble: validateFlag('followEnsemble', options.followEnsemble ?? ZK_LOCK_DEFAULTS.followEnsemble),
    ...validateDriver(options.driver ?? ZK_LOCK_DEFAULTS.driver, options.tls),
    identity: validateIdentity(options.identity ?? `${hostname()}:${process.pid}`),
    drainTimeoutMs: validateDuration('drainTimeoutMs', options.drainTimeoutMs ?? ZK_LOCK_DEFAULTS.drainTimeoutMs, { integer: true }),
    maxRecordBytes: validateInteger('maxRecordBytes', options.maxRecordBytes ?? ZK_LOCK_DEFAULTS.maxRecordBytes, 1, MAX_INT32),
    election: validateElection(options.election),
    electionConfigured: options.election !== undefined,
    partitions: validatePartitions(options.root ?? ZK_LOCK_DEFAULTS.root, options.partitions),
  };
}

function validateFlag(field: string, value: unknown): boolean {
  if (typeof value !== 'boolean') throw new InvalidOptionsError(field, `expected true or false, got ${describeValue(value)}`);
  return value;
}

/** Shorter under a test runner: see `zk-lock.test-runner.ts`. */
function defaultConnectTimeoutMs(): number {
  return testRunnerOf(process.env) === undefined ? ZK_LOCK_DEFAULTS.connectTimeoutMs : TEST_RUNNER_CONNECT_TIMEOUT_MS;
}

function validateDriver(driver: unknown, tls: unknown): Pick<ResolvedZkLockOptions, 'driver' | 'tls'> {
  if (!ZK_DRIVERS.includes(driver as ZkDriver)) throw new InvalidOptionsError('driver', `expected one of ${ZK_DRIVERS.map((d) => `'${d}'`).join(', ')}, got ${describeValue(driver)}`);
  if (tls === undefined) return { driver: driver as ZkDriver, tls: undefined };
  if (tls === null || typeof tls !== 'object' || Array.isArray(tls)) {
    throw new InvalidOptionsError('tls', `expected node:tls connection options ({ ca, cert, key, ... }), got ${describeValue(tls)}`);
  }
  if (driver === 'native') throw new InvalidOptionsError('tls', "the 'native' driver (the zookeeper package's C client) cannot speak TLS; use driver 'typescript'");
  return { driver: driver as ZkDriver, tls: tls as ZkTlsOptions };
}

function validateElection(value: unknown): ResolvedZkLockOptions['election'] {
  if (value === undefined) return ZK_LOCK_DEFAULTS.election;
  if (value === null || typeof value !== 'object') throw new InvalidOptionsError('election', 'expected an object { name?, joinOnBootstrap?, suspendPolicy?, warmUpHandOver? }');
  refuseUnknownKeys(value, ELECTION_KEYS, 'election.');
  const defaults = ZK_LOCK_DEFAULTS.election;
  const { name = defaults.name, joinOnBootstrap = defaults.joinOnBootstrap, suspendPolicy = defaults.suspendPolicy, warmUpHandOver = defaults.warmUpHandOver } = value as ZkLockElectionOptions;
  try {
    validateLockName(name);
  } catch (error) {
    if (error instanceof InvalidLockNameError) throw new InvalidOptionsError('election.name', error.problem);
    throw error;
  }
  if (typeof joinOnBootstrap !== 'boolean') throw new InvalidOptionsError('election.joinOnBootstrap', `expected true or false, got ${describeValue(joinOnBootstrap)}`);
  if (suspendPolicy !== 'immediate' && suspendPolicy !== 'deadline') {
    throw new InvalidOptionsError('election.suspendPolicy', `expected 'immediate' or 'deadline', got ${describeValue(suspendPolicy)}`);
  }
  if (typeof warmUpHandOver !== 'boolean') throw new InvalidOptionsError('election.warmUpHandOver', `expected true or false, got ${describeValue(warmUpHandOver)}`);
  return { name, joinOnBootstrap, suspendPolicy, warmUpHandOver };
}

/** Each set named once, validly, with a positive integer count and capacity (`InvalidPartitionCountError`, `DuplicatePartitionSetError`). */
function validatePartitions(root: string, value: unknown): ResolvedZkLockOptions['partitions'] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new InvalidOptionsError('partitions', `expected a list of { name, count, capacity? }, got ${describeValue(value)}`);
  const seen = new Set<string>();
  return value.map((entry: unknown, index) => {
    const field = `partitions[${index}]`;
    if (entry === null || typeof entry !== 'object') throw new InvalidOptionsError(field, 'expected { name, count, capacity? }');
    refuseUnknownKeys(entry, PARTITION_KEYS, `${field}.`);
    const { name, count, capacity = 1 } = entry as ZkLockPartitionOptions;
    try {
      validateLockName(name);
    } catch (error) {
      if (error instanceof InvalidLockNameError) throw new InvalidOptionsError(`${field}.name`, error.problem);
      throw error;
    }
    if (!Number.isInteger(count) || count < 1) throw new InvalidPartitionCountError(name, 'count', count);
    if (!Number.isInteger(capacity) || capacity < 1) throw new InvalidPartitionCountError(name, 'capacity', capacity);
    if (seen.has(name)) throw new DuplicatePartitionSetError(name, znodePaths.partitionSetDir(root, name));
    seen.add(name);
    return { name, count, capacity };
  });
}

/**
 * `host:port[,host:port...][/chroot]`; hosts are names, IPv4 or bracketed IPv6 (`[::1]:2181`).
 * The C client needs an explicit port. Returns the string the C client can parse: it splits
 * hosts on `,` and takes everything after the last `:` as the port, but tolerates blanks only
 * before a host (`a:1 ,b:2` and `a:1 /app` fail its port check), so blanks around entries are
 * dropped here; it reads a port with a leading zero differently from the resolver (`02181`),
 * so such ports are refused.
 */
export function validateConnectString(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new InvalidOptionsError('connect', 'expected a ZooKeeper connect string such as "127.0.0.1:2181"');
  }
  const connect = value.trim();
  const slash = connect.indexOf('/');
  const hosts = slash === -1 ? connect : connect.slice(0, slash);
  const chroot = slash === -1 ? '' : validateZnodePath('connect (chroot)', connect.slice(slash));
  const entries = hosts.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    const problem = serverEntryProblem(entry);
    if (problem) throw new InvalidOptionsError('connect', `${problem} (in "${connect}")`);
  }
  return entries.join(',') + chroot;
}

/** What is wrong with one `host:port` entry of a connect string, said so that the fix is plain; undefined when nothing. */
function serverEntryProblem(entry: string): string | undefined {
  const example = 'e.g. "zk1:2181,zk2:2181,zk3:2181"';
  if (entry === '') return `empty server entry: servers are separated by commas, ${example}`;
  if (/[\s;|]/.test(entry)) return `"${entry}" holds more than one server: servers are separated by commas, ${example}`;
  const bracketed = /^\[([^\]]*)\](?::(.*))?$/.exec(entry);
  const colon = entry.lastIndexOf(':');
  if (!bracketed && entry.indexOf(':') !== colon) return `"${entry}" is ambiguous: write IPv6 addresses in brackets: [::1]:2181`;
  const host = bracketed ? bracketed[1]! : colon === -1 ? entry : entry.slice(0, colon);
  const port = bracketed ? bracketed[2] : colon === -1 ? undefined : entry.slice(colon + 1);
  if (port === undefined) return `"${entry}" is not host:port: it has no port; write e.g. "${entry}:2181"`;
  if (!/^[1-9]\d{0,4}$/.test(port) || Number(port) > 65535) return `port "${port}" of "${entry}": port must be 1–65535, without a leading zero`;
  if (bracketed) return isIPv6(host) ? undefined : `"${host}" in "${entry}" is not an IPv6 address`;
  // All digits and dots is never a DNS name (RFC 1123), so it must be an IPv4 address.
  if (/^[\d.]+$/.test(host)) return isIPv4(host) ? undefined : `"${host}" in "${entry}" is not an IPv4 address`;
  if (!/^[A-Za-z0-9_.-]+$/.test(host)) return `"${host}" in "${entry}" is not a host name (letters, digits, "-", "_" and "." only)`;
  return undefined;
}

/** An absolute znode path: no empty, `.` or `..` segments, no trailing slash, no control characters. */
export function validateZnodePath(field: string, value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/')) {
    throw new InvalidOptionsError(field, `expected an absolute znode path such as "/zk-lock", got ${describeValue(value)}`);
  }
  if (value === '/') throw new InvalidOptionsError(field, 'must not be "/" itself');
  if (value.endsWith('/')) throw new InvalidOptionsError(field, `"${value}" must not end with "/"`);
  for (const segment of value.slice(1).split('/')) {
    if (segment === '' || segment === '.' || segment === '..') {
      throw new InvalidOptionsError(field, `"${value}" has an empty, "." or ".." segment`);
    }
    if (CONTROL_CHARS.test(segment)) throw new InvalidOptionsError(field, `"${value}" contains a control character`);
  }
  if (value === '/zookeeper' || value.startsWith('/zookeeper/')) {
    throw new InvalidOptionsError(field, '"/zookeeper" is reserved by ZooKeeper');
  }
  return value;
}

function validateInteger(field: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new InvalidOptionsError(field, `expected an integer from ${min} to ${max}, got ${describeValue(value)}`);
  }
  return value;
}

function validateAuth(value: ZkLockModuleOptions['auth']): readonly ZkAuth[] {
  if (value === undefined) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((auth: unknown, index) => {
    const field = Array.isArray(value) ? `auth[${index}]` : 'auth';
    if (auth === null || typeof auth !== 'object') throw new InvalidOptionsError(field, 'expected { scheme, credentials }');
    refuseUnknownKeys(auth, AUTH_KEYS, `${field}.`);
    const { scheme, credentials } = auth as Partial<ZkAuth>;
    if (typeof scheme !== 'string' || scheme === '') throw new InvalidOptionsError(`${field}.scheme`, 'expected a scheme such as "digest"');
    if (typeof credentials !== 'string' || credentials === '') {
      throw new InvalidOptionsError(`${field}.credentials`, 'expected a non-empty string');
    }
    if (scheme === 'digest' && !/^[^:]+:.+$/.test(credentials)) {
      throw new InvalidOptionsError(`${field}.credentials`, 'digest credentials must be "user:password"');
    }
    return { scheme, credentials };
  });
}

function validateAcl(value: ZkLockModuleOptions['acl'], auth: readonly ZkAuth[]): readonly ZkAcl[] | undefined {
  if (value === undefined) return auth.length > 0 ? CREATOR_ALL_ACL : undefined;
  if (value === 'open') return undefined;
  if (value === 'creator') {
    // ZooKeeper expands the `auth` scheme into the session's identities; with none it refuses the ACL.
    if (auth.length === 0) throw new InvalidOptionsError('acl', `'creator' needs \`auth\` credentials to name the creator`);
    return CREATOR_ALL_ACL;
  }
  if (!Array.isArray(value) || value.length === 0) {
    throw new InvalidOptionsError('acl', `expected 'creator', 'open' or a non-empty list of { perms, scheme, id }`);
  }
  return value.map((entry: unknown, index) => {
    const field = `acl[${index}]`;
    if (entry === null || typeof entry !== 'object') throw new InvalidOptionsError(field, 'expected { perms, scheme, id }');
    refuseUnknownKeys(entry, ACL_KEYS, `${field}.`);
    const { perms, scheme, id } = entry as Partial<ZkAcl>;
    validateInteger(`${field}.perms`, perms, 1, ZK_PERMS.ALL);
    if (typeof scheme !== 'string' || scheme === '') throw new InvalidOptionsError(`${field}.scheme`, 'expected a scheme such as "digest"');
    if (typeof id !== 'string') throw new InvalidOptionsError(`${field}.id`, 'expected a string');
    if (scheme === 'auth' && auth.length === 0) throw new InvalidOptionsError(`${field}.scheme`, `"auth" needs \`auth\` credentials`);
    return { perms: perms!, scheme, id };
  });
}

function validateLogLevel(value: unknown): ClientLogLevel {
  if (!LOG_LEVELS.includes(value as ClientLogLevel)) {
    throw new InvalidOptionsError('clientLogLevel', `expected one of ${LOG_LEVELS.join(', ')}`);
  }
  return value as ClientLogLevel;
}

function validateIdentity(value: unknown): string {
  if (typeof value !== 'string' || value === '' || value.length > 1024) {
    throw new InvalidOptionsError('identity', 'expected a non-empty string of at most 1024 characters');
  }
  return value;
}
