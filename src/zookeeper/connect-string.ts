// The connect string on its way to a driver (the validator checks it first, see
// `zk-lock.options-validator.ts`): split for the TypeScript client, rewritten for the C client.

/** `h1:p,h2:p,h3:p/chroot` with the hosts in random order (Fisher-Yates); the chroot stays last. */
export function shuffleHosts(connectString: string): string {
  return mapHosts(connectString, (hosts) => {
    for (let i = hosts.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [hosts[i], hosts[j]] = [hosts[j]!, hosts[i]!];
    }
    return hosts;
  });
}

/**
 * `[::1]:2181` as the C client reads it: it does not strip brackets (it would try to resolve
 * `[::1]` and fail) but splits each host at its last `:`, so a bare `::1:2181` is unambiguous to it.
 */
export function nativeConnectString(connectString: string): string {
  return mapHosts(connectString, (hosts) => hosts.map((host) => host.replace(/^\[([^\]]*)\]:/, '$1:')));
}

/** One server of a connect string. */
export interface ServerAddress {
  readonly host: string;
  readonly port: number;
}

/** `h1:p,[::1]:p/chroot` into addresses and the chroot ('' for none), for the TypeScript client. */
export function parseConnectString(connectString: string): { hosts: ServerAddress[]; chroot: string } {
  const { hosts, chroot } = splitConnectString(connectString);
  const addresses = hosts
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
      if (bracketed) return { host: bracketed[1]!, port: Number(bracketed[2] ?? 2181) };
      // As the C client reads it: the port follows the last colon (so `::1:2181` is `[::1]:2181`).
      const colon = entry.lastIndexOf(':');
      if (colon === -1 || !/^\d+$/.test(entry.slice(colon + 1))) return { host: entry, port: 2181 };
      return { host: entry.slice(0, colon), port: Number(entry.slice(colon + 1)) };
    });
  return { hosts: addresses, chroot: chroot.replace(/\/+$/, '') };
}

/** `h1:p,[::1]:p/chroot` from addresses and a chroot: `parseConnectString` reversed. */
export function formatConnectString(hosts: readonly ServerAddress[], chroot: string): string {
  return hosts.map((address) => (address.host.includes(':') ? `[${address.host}]:${address.port}` : `${address.host}:${address.port}`)).join(',') + chroot;
}

/** `connectString` with its host list replaced by what `map` makes of it; the chroot (from the first `/`) stays last. */
function mapHosts(connectString: string, map: (hosts: string[]) => string[]): string {
  const { hosts, chroot } = splitConnectString(connectString);
  return map(hosts).join(',') + chroot;
}

/** The hosts (split at `,`) and the chroot: everything from the first `/` on, or ''. */
function splitConnectString(connectString: string): { hosts: string[]; chroot: string } {
  const slash = connectString.indexOf('/');
  if (slash === -1) return { hosts: connectString.split(','), chroot: '' };
  return { hosts: connectString.slice(0, slash).split(','), chroot: connectString.slice(slash) };
}
