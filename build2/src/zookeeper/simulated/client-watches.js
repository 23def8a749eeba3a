/**
 * A client's one-shot watchers, kept the way the C client keeps them (`zk_hashtable`): by path, in
 * three tables, each watcher called once by the first event that concerns it (created or changed:
 * data and exist watchers; deleted: all three; child: child watchers). `SimulatedHandle` and the
 * in-memory sessions of the hand-over rehearsal keep theirs here.
 */
export class ClientWatches {
    constructor() {
        this.tables = { data: new Map(), exist: new Map(), child: new Map() };
    }
    keep(kind, path, watcher) {
        let set = this.tables[kind].get(path);
        if (!set)
            this.tables[kind].set(path, (set = new Set()));
        set.add(watcher);
    }
    /** Removes and returns the watchers `type` at `path` fires (each once, even if kept in two tables). */
    take(type, path) {
        const kinds = type === 'child' ? ['child'] : type === 'deleted' ? ['data', 'exist', 'child'] : ['data', 'exist'];
        const fired = new Set();
        for (const kind of kinds) {
            for (const watcher of this.tables[kind].get(path) ?? [])
                fired.add(watcher);
            this.tables[kind].delete(path);
        }
        return [...fired];
    }
    /** The watched paths by table: what `SetWatches` re-sends after a reconnection. */
    paths() {
        return { data: [...this.tables.data.keys()], exist: [...this.tables.exist.keys()], child: [...this.tables.child.keys()] };
    }
    clear() {
        for (const table of Object.values(this.tables))
            table.clear();
    }
}
//# sourceMappingURL=client-watches.js.map