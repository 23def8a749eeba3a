import { EnsembleConfigError } from '../errors/ensemble-config.error.js';
import type { ServerAddress } from './connect-string.js';

/** Where ZooKeeper keeps the ensemble's membership (`ZooDefs.CONFIG_NODE`); never under a chroot. */
export const CONFIG_NODE = '/zookeeper/config';

/** One member of the ensemble as `/zookeeper/config` lists it. */
export interface EnsembleMember {
  readonly id: number;
  readonly role: 'participant' | 'observer';
  /** Where clients connect (`;host:port`); undefined when the line gives none. */
  readonly client: ServerAddress | undefined;
  /** Where TLS clients connect (`;[client];host:port`); undefined when the line gives none. */
  readonly secureClient: ServerAddress | undefined;
}

export interface EnsembleConfig {
  /** The `version=` line (hex, the zxid of the reconfig that made it); undefined when absent. */
  readonly version: string | undefined;
  readonly members: readonly EnsembleMember[];
}

/**
 * Reads the text of `/zookeeper/config` (`QuorumVerifier.toString`): a `server.<id>=` line per
 * member, `<host>:<quorumPort>:<electionPort>[:participant|:observer]` (several such addresses
 * joined by `|` with multi-address), then `;[<clientHost>:]<clientPort>` and
 * `;[<host>:]<secureClientPort>` when given, IPv6 hosts in brackets; and a `version=` line.
 * Other keys (`group.`, `weight.` of hierarchical quorums) say nothing about addresses. A
 * standalone server's config is empty: no members. A client address on the wildcard host
 * (`0.0.0.0`, `::`, or a port alone, which the server reads as `0.0.0.0`) means every interface
 * of the member: its quorum host stands for it, as Curator's `EnsembleTracker` does.
 */
export function parseEnsembleConfig(text: string): EnsembleConfig {
  let version: string | undefined;
  const members: EnsembleMember[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const equals = line.indexOf('=');
    if (equals === -1) throw new EnsembleConfigError(line, "no '='");
    const key = line.slice(0, equals).trim();
    const value = line.slice(equals + 1).trim();
    if (key === 'version') {
      if (!/^[0-9a-fA-F]+$/.test(value)) throw new EnsembleConfigError(line, 'the version is not hexadecimal');
      version = value.toLowerCase();
    } else if (key.startsWith('server.')) {
      members.push(parseMember(line, key, value));
    }
  }
  return { version, members };
}

/** The addresses clients connect to (`secure`: the TLS ones), in the config's order; members that give none are left out. */
export function clientAddresses(config: EnsembleConfig, secure: boolean): ServerAddress[] {
  return config.members.map((member) => (secure ? member.secureClient : member.client)).filter((address): address is ServerAddress => address !== undefined);
}

function parseMember(line: string, key: string, value: string): EnsembleMember {
  const id = Number(key.slice('server.'.length));
  if (!Number.isSafeInteger(id) || id < 0) throw new EnsembleConfigError(line, 'the server id is not a number');
  const [quorum = '', client = '', secureClient = '', ...extra] = value.split(';');
  if (extra.length > 0) throw new EnsembleConfigError(line, "more than three ';'-separated parts");
  let role: EnsembleMember['role'] = 'participant';
  let quorumHost: string | undefined;
  for (const address of quorum.split('|')) {
    const parts = splitHostAndPort(line, address);
    if (parts.length < 3 || parts.length > 4) throw new EnsembleConfigError(line, 'expected host:quorumPort:electionPort[:role]');
    if (parts[3] !== undefined) {
      if (parts[3] !== 'participant' && parts[3] !== 'observer') throw new EnsembleConfigError(line, `unknown role '${parts[3]}'`);
      role = parts[3];
    }
    quorumHost ??= parts[0];
  }
  return { id, role, client: clientAddress(line, client, quorumHost!), secureClient: clientAddress(line, secureClient, quorumHost!) };
}

function clientAddress(line: string, spec: string, quorumHost: string): ServerAddress | undefined {
  if (spec.trim() === '') return undefined;
  const parts = splitHostAndPort(line, spec.trim());
  if (parts.length > 2) throw new EnsembleConfigError(line, `client address '${spec}' is not [host:]port`);
  const port = Number(parts[parts.length - 1]);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new EnsembleConfigError(line, `client port '${parts[parts.length - 1]}' is not a port`);
  const host = parts.length === 2 ? parts[0]! : '0.0.0.0';
  return { host: isWildcard(host) ? quorumHost : host, port };
}

/**
 * `host:a:b` split at its colons, a bracketed IPv6 host kept whole without its brackets
 * (`ConfigUtils.getHostAndPort`).
 */
function splitHostAndPort(line: string, spec: string): string[] {
  if (!spec.startsWith('[')) return spec.split(':');
  const close = spec.indexOf(']');
  if (close === -1) throw new EnsembleConfigError(line, `'${spec}' opens a bracket it does not close`);
  const rest = spec.slice(close + 1);
  if (rest !== '' && !rest.startsWith(':')) throw new EnsembleConfigError(line, `'${spec}' has something other than ':' after ']'`);
  return [spec.slice(1, close), ...(rest === '' ? [] : rest.slice(1).split(':'))];
}

function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || /^[0:]+$/.test(host);
}
