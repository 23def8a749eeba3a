import { BehaviorSubject, distinctUntilChanged, filter, Observable, type Subscription } from 'rxjs';
import { ZooKeeperError } from '../../errors/zookeeper.error.js';
import { isConnectedState } from '../../zookeeper/session-state.js';
import type { Watcher } from '../../zookeeper/types.js';
import type { ZkSessionClient } from '../../zookeeper/session-requests.js';
import { isSessionOwned, sortQueue } from '../queue/queue-node.js';

/** A watch this tracker set: on which session, and its watcher (to drop it when nobody follows). */
interface StandingWatch {
  readonly sessionId: string | undefined;
  readonly watcher: Watcher;
}

/**
 * `leader$`: the identity stored in the node at the head of an election queue (the leader, or the
 * participant about to lead once its recovery is done), or null when the queue is empty.
 *
 * Watch strategy: a data watch on the head node only, and only while someone subscribes (once
 * nobody does, it is removed, here and on the server, where the driver can). A
 * change of leader costs each subscribed process one notification and two requests
 * (`getChildren`, `getData` with a new watch); participants joining or leaving behind the head
 * cost nothing. With no head to watch, it watches for the first participant instead: a child
 * watch on an empty election (its listing repeated armed, one more request), an `exists` watch
 * on an absent directory (not made yet, or swept as an empty container). So a process that does
 * not take part sees the first leader of an empty election too.
 */
export class LeaderTracker {
  readonly leader$: Observable<string | null>;
  /** undefined: not known (nobody subscribed, or the first look is in flight). */
  private readonly current = new BehaviorSubject<string | null | undefined>(undefined);
  private observers = 0;
  private generation = 0;
  /** Names of persistent look-alikes of queue nodes (see `isSessionOwned`). */
  private readonly foreign = new Set<string>();
  private stateSubscription: Subscription | undefined;
  /**
   * The head node our data watch stands on, and the session that set it. The C client keeps a
   * watch through reconnections of its session, so a look after `reconnected` must not set
   * another on the same node (one more callback per reconnection, until the node changes).
   */
  private watching: StandingWatch & { readonly path: string } | undefined;
  /** The same for our watch on the directory while it has no head (`'exists'` while it is absent). */
  private watchingDir: StandingWatch & { readonly kind: 'children' | 'exists' } | undefined;

  constructor(
    private readonly session: ZkSessionClient,
    private readonly dir: string,
    private readonly logger: { warn(message: string): void },
  ) {
    this.leader$ = new Observable<string | null>((subscriber) => {
      const inner = this.current
        .pipe(
          filter((value): value is string | null => value !== undefined),
          distinctUntilChanged(),
        )
        .subscribe(subscriber);
      if (!this.current.closed && ++this.observers === 1) this.start();
      return () => {
        inner.unsubscribe();
        if (!this.current.closed && --this.observers === 0) this.stop();
      };
    });
  }

  /** Someone subscribes, and `close()` was not called. */
  private get following(): boolean {
    return this.observers > 0 && !this.current.closed;
  }

  /** Looks at the queue again. No-op without subscribers. */
  refresh(): void {
    if (this.following) void this.look(++this.generation);
  }

  /**
   * This process got to the head of the queue. Watching the previous head already told us, unless
   * there was none to watch (the queue was empty when we last looked): only then look again.
   */
  joinedAtHead(): void {
    if (this.current.value === null) this.refresh();
  }

  close(): void {
    this.stop();
    this.current.complete();
  }

  private start(): void {
    // A new session lost our watch; a reconnected one kept it, but deletions may have happened.
    this.stateSubscription = this.session.state$.subscribe((change) => {
      if (isConnectedState(change.state)) this.refresh();
    });
  }

  private stop(): void {
    this.generation++;
    this.stateSubscription?.unsubscribe();
    this.stateSubscription = undefined;
    // Nobody follows any more: our watches would stand until the head (or the directory) changes,
    // for as long as the leader leads. A look still in flight drops its own once answered (`look`).
    if (this.watching) this.forget(this.watching.path, 'data', this.watching);
    if (this.watchingDir) this.forget(this.dir, this.watchingDir.kind === 'children' ? 'children' : 'data', this.watchingDir);
    this.watching = undefined;
    this.watchingDir = undefined;
    if (!this.current.closed) this.current.next(undefined);
  }

  /** Drops a watch this tracker set (`removeWatches` where the driver can), if its session is still ours. */
  private forget(path: string, kind: 'data' | 'children', watch: StandingWatch): void {
    if (watch.sessionId === this.session.sessionId) this.session.forgetWatch(path, kind, watch.watcher);
  }

  private async look(generation: number): Promise<void> {
    try {
      // The head may leave between the listing and the read: then list again (each round is progress).
      while (generation === this.generation && isConnectedState(this.session.state)) {
        const head = await this.head();
        if (generation !== this.generation) return;
        if (head === undefined) return this.current.next(null);
        const path = `${this.dir}/${head}`;
        const watch = this.watchFor(path);
        try {
          const { data, stat } = await this.session.getData(path, watch?.watcher);
          // Stopped while this read was in flight: the watch it set came after `stop` dropped ours.
          if (!this.following && watch) this.forget(path, 'data', watch.mark);
          // A persistent node named like a queue node (made by hand) leads nothing: skip it for good.
          if (!isSessionOwned(stat.ephemeralOwner)) {
            this.foreign.add(head);
            continue;
          }
          if (generation === this.generation) this.current.next(data.toString('utf8'));
          return;
        } catch (error) {
          // No reply, or NONODE: the C client kept no watch (getData leaves none on a missing node).
          if (watch && this.watching === watch.mark) this.watching = undefined;
          if (!ZooKeeperError.is(error, 'NONODE')) throw error;
        }
      }
    } catch (error) {
      // Connection trouble: the next connected state refreshes.
      if (generation !== this.generation || ZooKeeperError.isRetryable(error)) return;
      this.logger.warn(`Could not read the leader of ${this.dir}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /**
   * A watcher for the head node `path`, or none when ours already stands on it (same session).
   * Its event refreshes whoever subscribes by then, whatever look set it: a change of the head
   * node is news to every later look too.
   */
  private watchFor(path: string): { watcher: Watcher; mark: NonNullable<LeaderTracker['watching']> } | undefined {
    const sessionId = this.session.sessionId;
    if (this.watching?.path === path && this.watching.sessionId === sessionId) return undefined;
    const watcher: Watcher = (event) => {
      if (this.watching === mark) this.watching = undefined;
      if (event.type !== 'notwatching') this.refresh();
    };
    const mark = { path, sessionId, watcher };
    this.watching = mark;
    return { watcher, mark };
  }

  /**
   * Name of the head node; or undefined when the queue is empty or its directory absent, and then
   * a watch stands on the directory whose event refreshes (see the class doc).
   */
  private async head(): Promise<string | undefined> {
    for (let armed = false; ; ) {
      // Listed unarmed first: a child watch on a busy queue would fire at every join behind the head.
      const watch = armed ? this.dirWatchFor('children') : undefined;
      let children: string[];
      try {
        ({ children } = await this.session.getChildren(this.dir, watch?.watcher));
      } catch (error) {
        if (watch && this.watchingDir === watch.mark) this.watchingDir = undefined; // NONODE or no reply: no watch kept
        if (!ZooKeeperError.is(error, 'NONODE')) throw error;
        // No directory: `exists` leaves a watch on a missing node, fired by its creation.
        const creation = this.dirWatchFor('exists');
        const exists = await this.session.exists(this.dir, creation?.watcher);
        // Stopped while in flight (see `look`); or the directory was made meanwhile, and the watch
        // now stands on its data, which no join changes.
        if (creation && (!this.following || exists !== null)) this.dropDirWatch(creation.mark);
        if (exists === null) return undefined;
        armed = false; // made meanwhile: list it
        continue;
      }
      const head = sortQueue(children, 'n').find((node) => !this.foreign.has(node.name))?.name;
      // Stopped while in flight; or someone joined between the empty listing and the armed one,
      // and the head's watch will tell us what matters.
      if (watch && (!this.following || head !== undefined)) this.dropDirWatch(watch.mark);
      // Empty: list again with a child watch (unless ours stands), so that the first join is news.
      if (head !== undefined || armed || this.dirWatchStands('children')) return head;
      armed = true;
    }
  }

  /** Drops the directory watch `mark`, set by a look that found it needless (see `forget`). */
  private dropDirWatch(mark: NonNullable<LeaderTracker['watchingDir']>): void {
    if (this.watchingDir === mark) this.watchingDir = undefined;
    this.forget(this.dir, mark.kind === 'children' ? 'children' : 'data', mark);
  }

  /** Our watch of `kind` on the directory stands (set by the current session, not fired yet). */
  private dirWatchStands(kind: 'children' | 'exists'): boolean {
    return this.watchingDir?.kind === kind && this.watchingDir.sessionId === this.session.sessionId;
  }

  /** A watcher on the directory, as `watchFor` for the head node: none when ours of that kind stands. */
  private dirWatchFor(kind: 'children' | 'exists'): { watcher: Watcher; mark: NonNullable<LeaderTracker['watchingDir']> } | undefined {
    if (this.dirWatchStands(kind)) return undefined;
    const watcher: Watcher = (event) => {
      if (this.watchingDir === mark) this.watchingDir = undefined;
      if (event.type !== 'notwatching') this.refresh();
    };
    const mark = { kind, sessionId: this.session.sessionId, watcher };
    this.watchingDir = mark;
    return { watcher, mark };
  }
}
