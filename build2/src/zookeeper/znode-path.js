/** The parent of a znode path (`/` for a child of the root, and for the root itself). */
export function parentOf(path) {
    const slash = path.lastIndexOf('/');
    return slash <= 0 ? '/' : path.slice(0, slash);
}
/** The last segment of a znode path: a node's name in its parent. */
export function basenameOf(path) {
    return path.slice(path.lastIndexOf('/') + 1);
}
//# sourceMappingURL=znode-path.js.map