/**
 * Why a request to one of the dashboard's actions comes from another site, or undefined when
 * nothing says so. The confirmation header already needs a CORS preflight, but an application
 * that allows CORS broadly would answer it: these headers are set by the browser itself and a page
 * cannot forge them. A browser sends `Origin` with every POST and, when it knows it,
 * `Sec-Fetch-Site`; a client that sends neither (curl, a script) is not a browser that could be
 * tricked into acting. `Origin` is compared with `Host` by host and port only: behind a proxy that
 * ends TLS the application sees `http` for a page served over `https`.
 */
export function crossSiteReason(site) {
    const fetchSite = site['sec-fetch-site'];
    if (fetchSite !== undefined && fetchSite !== 'same-origin')
        return `the browser says it comes from another site (Sec-Fetch-Site: ${fetchSite})`;
    if (site.origin === undefined)
        return undefined;
    if (site.host === undefined)
        return `it comes from ${site.origin} and names no Host to compare with`;
    return hostOf(site.origin) === site.host.toLowerCase() ? undefined : `it comes from another site (Origin ${site.origin}, this host ${site.host})`;
}
/** The `host[:port]` of an origin, or undefined for `null` and anything that is not a URL. */
function hostOf(origin) {
    try {
        return new URL(origin).host;
    }
    catch {
        return undefined; // "null" (a sandboxed frame, a redirect across sites): never this host
    }
}
//# sourceMappingURL=same-origin.js.map