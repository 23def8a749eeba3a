import { BehaviorSubject, distinctUntilChanged, filter, Observable } from 'rxjs';
import { ZooKeeperError } from '../../errors/zookeeper.error.js';
import { isConnectedState } from '../../zookeeper/session-state.js';
import { isSessionOwned, sortQueue } from '../queue/queue-node.js';
/**
 * `leader$`: the identity stored in the node at the head of an election queue (the leader, or the
 * participant about to lead once its recovery is done), or null when the queue is empty.
 *
 * Watch strategy: a data watch on the head node only, and only while someone subscribes. A
 * change of leader costs each subscribed process one notification and two requests
 * (`getChildren`, `getData` with a new watch); participants joining or leaving behind the head
 * cost nothing. With no head to watch, it watches for the first participant instead: a child
 * watch on an empty election (its listing repeated armed, one more request), an `exists` watch
 * on an absent directory (not made yet, or swept as an empty container). So a process that does
 * not take part sees the first leader of an empty election too.
 */
export class LeaderTracker {
    constructor(session, dir, logger) {
        this.session = session;
        this.dir = dir;
        this.logger = logger;
        /** undefined: not known (nobody subscribed, or the first look is in flight). */
        this.current = new BehaviorSubject(undefined);
        this.observers = 0;
        this.generation = 0;
        /** Names of persistent look-alikes of queue nodes (see `isSessionOwned`). */
        this.foreign = new Set();
        this.leader$ = new Observable((subscriber) => {
            const inner = this.current
                .pipe(filter((value) => value !== undefined), distinctUntilChanged())
                .subscribe(subscriber);
            if (!this.current.closed && ++this.observers === 1)
                this.start();
            return () => {
                inner.unsubscribe();
                if (!this.current.closed && --this.observers === 0)
                    this.stop();
            };
        });
    }
    /** Looks at the queue again. No-op without subscribers. */
    refresh() {
        if (this.observers > 0 && !this.current.closed)
            void this.look(++this.generation);
    }
    /**
     * This process got to the head of the queue. Watching the previous head already told us, unless
     * there was none to watch (the queue was empty when we last looked): only then look again.
     */
    joinedAtHead() {
        if (this.current.value === null)
            this.refresh();
    }
    close() {
        this.stop();
        this.current.complete();
    }
    start() {
        // A new session lost our watch; a reconnected one kept it, but deletions may have happened.
        this.stateSubscription = this.session.state$.subscribe((change) => {
            if (isConnectedState(change.state))
                this.refresh();
        });
    }
    stop() {
        this.generation++;
        this.stateSubscription?.unsubscribe();
        this.stateSubscription = undefined;
        if (!this.current.closed)
            this.current.next(undefined);
    }
    async look(generation) {
        try {
            // The head may leave between the listing and the read: then list again (each round is progress).
            while (generation === this.generation && isConnectedState(this.session.state)) {
                const head = await this.head();
                if (generation !== this.generation)
                    return;
                if (head === undefined)
                    return this.current.next(null);
                const path = `${this.dir}/${head}`;
                const watch = this.watchFor(path);
                try {
                    const { data, stat } = await this.session.getData(path, watch?.watcher);
                    // A persistent node named like a queue node (made by hand) leads nothing: skip it for good.
                    if (!isSessionOwned(stat.ephemeralOwner)) {
                        this.foreign.add(head);
                        continue;
                    }
                    if (generation === this.generation)
                        this.current.next(data.toString('utf8'));
                    return;
                }
                catch (error) {
                    // No reply, or NONODE: the C client kept no watch (getData leaves none on a missing node).
                    if (watch && this.watching === watch.mark)
                        this.watching = undefined;
                    if (!ZooKeeperError.is(error, 'NONODE'))
                        throw error;
                }
            }
        }
        catch (error) {
            // Connection trouble: the next connected state refreshes.
            if (generation !== this.generation || ZooKeeperError.isRetryable(error))
                return;
            this.logger.warn(`Could not read the leader of ${this.dir}: ${error instanceof Error ? error.message : String(error)}`);
        }
    }
    /**
     * A watcher for the head node `path`, or none when ours already stands on it (same session).
     * Its event refreshes whoever subscribes by then, whatever look set it: a change of the head
     * node is news to every later look too.
     */
    watchFor(path) {
        const sessionId = this.session.sessionId;
        if (this.watching?.path === path && this.watching.sessionId === sessionId)
            return undefined;
        const mark = { path, sessionId };
        this.watching = mark;
        const watcher = (event) => {
            if (this.watching === mark)
                this.watching = undefined;
            if (event.type !== 'notwatching')
                this.refresh();
        };
        return { watcher, mark };
    }
    /**
     * Name of the head node; or undefined when the queue is empty or its directory absent, and then
     * a watch stands on the directory whose event refreshes (see the class doc).
     */
    async head() {
        for (let armed = false;;) {
            // Listed unarmed first: a child watch on a busy queue would fire at every join behind the head.
            const watch = armed ? this.dirWatchFor('children') : undefined;
            let children;
            try {
                ({ children } = await this.session.getChildren(this.dir, watch?.watcher));
            }
            catch (error) {
                if (watch && this.watchingDir === watch.mark)
                    this.watchingDir = undefined; // NONODE or no reply: no watch kept
                if (!ZooKeeperError.is(error, 'NONODE'))
                    throw error;
                // No directory: `exists` leaves a watch on a missing node, fired by its creation.
                const creation = this.dirWatchFor('exists');
                if ((await this.session.exists(this.dir, creation?.watcher)) === null)
                    return undefined;
                armed = false; // made meanwhile: list it
                continue;
            }
            const head = sortQueue(children, 'n').find((node) => !this.foreign.has(node.name))?.name;
            // Empty: list again with a child watch (unless ours stands), so that the first join is news.
            if (head !== undefined || armed || this.dirWatchStands('children'))
                return head;
            armed = true;
        }
    }
    /** Our watch of `kind` on the directory stands (set by the current session, not fired yet). */
    dirWatchStands(kind) {
        return this.watchingDir?.kind === kind && this.watchingDir.sessionId === this.session.sessionId;
    }
    /** A watcher on the directory, as `watchFor` for the head node: none when ours of that kind stands. */
    dirWatchFor(kind) {
        if (this.dirWatchStands(kind))
            return undefined;
        const mark = { kind, sessionId: this.session.sessionId };
        this.watchingDir = mark;
        const watcher = (event) => {
            if (this.watchingDir === mark)
                this.watchingDir = undefined;
            if (event.type !== 'notwatching')
                this.refresh();
        };
        return { watcher, mark };
    }
}
//# sourceMappingURL=leader-tracker.js.map