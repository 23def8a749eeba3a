/**
 * The C client's path check (`isValidPath` in zookeeper.c), applied before a request is sent:
 * a path that fails it is refused with BADARGUMENTS and never reaches a server. Without it the
 * server answers some of these paths with another code (`/a//c` with NONODE: it looks up the
 * parent `/a/` first), so the two drivers would disagree (the conformance suite showed it).
 *
 * A path (chroot included) starts with '/', is '/' or does not end with '/', and holds no empty,
 * '.' or '..' segment and no control character U+0001..U+001E or NUL. A sequential create may end
 * with '/' or '.' / '..' (the server appends the sequence number to the last segment).
 * (The Java client's `PathUtils.validatePath` refuses more characters; the C client is what
 * the `native` driver, and so this library's behaviour until now, checks.)
 */
export function isValidPath(path: string, sequential: boolean): boolean {
  if (path.length === 0 || path[0] !== '/') return false;
  if (path.length === 1) return true;
  if (path.endsWith('/') && !sequential) return false;
  const segments = path.slice(1).split('/');
  for (const [i, segment] of segments.entries()) {
    const last = i === segments.length - 1;
    if (segment === '' && !last) return false; // '//'
    if ((segment === '.' || segment === '..') && !(last && sequential)) return false;
  }
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  return !/[\u0000-\u001e]/.test(path);
}
