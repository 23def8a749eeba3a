// The connect string on its way to the C client (the validator checks it first, see
// `zk-lock.options-validator.ts`).
/** `h1:p,h2:p,h3:p/chroot` with the hosts in random order (Fisher-Yates); the chroot stays last. */
export function shuffleHosts(connectString) {
    return mapHosts(connectString, (hosts) => {
        for (let i = hosts.length - 1; i > 0; i--) {
            const j = Math.floor(Math.random() * (i + 1));
            [hosts[i], hosts[j]] = [hosts[j], hosts[i]];
        }
        return hosts;
    });
}
/**
 * `[::1]:2181` as the C client reads it: it does not strip brackets (it would try to resolve
 * `[::1]` and fail) but splits each host at its last `:`, so a bare `::1:2181` is unambiguous to it.
 */
export function nativeConnectString(connectString) {
    return mapHosts(connectString, (hosts) => hosts.map((host) => host.replace(/^\[([^\]]*)\]:/, '$1:')));
}
/** `connectString` with its host list replaced by what `map` makes of it; the chroot (from the first `/`) stays last. */
function mapHosts(connectString, map) {
    const slash = connectString.indexOf('/');
    const hosts = (slash === -1 ? connectString : connectString.slice(0, slash)).split(',');
    return map(hosts).join(',') + (slash === -1 ? '' : connectString.slice(slash));
}
//# sourceMappingURL=connect-string.js.map