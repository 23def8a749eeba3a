/**
 * A queue node's **mark**, the one meaning of its data version. After its create, the library
 * writes a queue node in one way only: a `setData` of the node's own data, unchanged, so that
 * only the version moves; a version above 0 means "marked". What a mark says is fixed per recipe,
 * by the one place that writes it:
 * - in a lock's, a read/write lock's and an election's queue, a **release request**
 *   (`requestRelease`): another process asked the holder or leader to let go;
 * - in a semaphore's queue, a **grant** (`PermitPool`): the node was granted while callers queued
 *   behind it, and the one right behind learns it from the mark. Nobody asks a semaphore's
 *   holders to let go (`requestRelease` takes no semaphore), so the two meanings never meet.
 * An operator's `setData` by hand looks like a mark too; each reader says what such a false mark
 * costs it (one more look, never a loop, never a grant).
 */
export function isMarked(stat) {
    return stat.version > 0;
}
/** Marks `path`: its data written back unchanged, any version (two markers at once both land). */
export function markNode(client, path, data) {
    return client.setData(path, data, -1);
}
//# sourceMappingURL=node-mark.js.map