import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { Observable, Subject, type Subscription } from 'rxjs';
import { inspect, type InspectedElection, type InspectedLock, type KnownNodes } from '../cli/inspect.js';
import type { InspectedReadWriteLock, InspectedSemaphore } from '../cli/inspect-shared.js';
import { ZooKeeperError } from '../errors/zookeeper.error.js';
import { LockService } from '../services/lock.service.js';
import { ZkLockEvents } from '../observability/zk-lock-events.js';
import type { ZkLockEvent } from '../observability/zk-lock-event.js';
import { ZK_LOCK_OPTIONS } from '../zk-lock.constants.js';
import type { ResolvedZkLockOptions } from '../zk-lock.options.js';
import type { SessionStateChange } from '../zookeeper/session-state.js';
import type { ZkSessionClient } from '../zookeeper/session-requests.js';
import { byName, withHolderTokens, type DashboardMessage, type DashboardView } from './dashboard-view.js';
import { DASHBOARD_OPTIONS, DASHBOARD_SESSION } from './dashboard.constants.js';
import type { ResolvedDashboardOptions } from './dashboard.options.js';
import { successionEntry, timelineEntryOf, type TimelineEntry } from './timeline.js';
import { Viewers } from './viewers.js';
import { EVERYTHING, groupStale, RootWatch, type Stale } from './root-watch.js';
import { PartitionSetsView } from './partition-sets-view.js';
import { watchTargetsOf, type Category, type WatchTarget } from './watch-targets.js';

const put = <T>(map: Map<string, T>, name: string, value: T | undefined) => (value ? map.set(name, value) : map.delete(name));
/** Changes arriving within this long are read together: a busy lock must not mean a read per release. */
const SETTLE_MS = 200;
/** Names read at once, so that a thousand new locks do not send a thousand readings together. */
const READ_BATCH = 32;
/** After a reading failed (the connection dropped, say): what it was to read is tried again this much later. */
const RETRY_MS = 1000;
/** Queue nodes remembered (see `KnownNodes`); past this, forgotten all at once and read again. */
const KNOWN_NODES_MAX = 10_000;

/**
 * The dashboard's live picture of the root, shared by every open page, and its timeline.
 *
 * Kept up to date by watches, never by polling: one persistent recursive watch on the root
 * (`RootWatch`), or where the driver or server has none, one one-shot watch on each category
 * directory, queue directory and ready znode (one per directory however many wait). A change
 * marks its name stale; stale names are read again once changes settle (`SETTLE_MS`) and the new
 * view goes to every page. Watches are set only while someone views (`Viewers`: an open page, or a
 * recent `api/state` call, which is served this view too, so that polling it reads nothing in the
 * session the locks share). The timeline is this process's events (`ZkLockEvents`) and every
 * holder or leader change seen.
 */
@Injectable()
export class DashboardState implements OnModuleDestroy {
  private readonly logger = new Logger('ZkLockDashboard');
  private readonly locks = new Map<string, InspectedLock>();
  private readonly elections = new Map<string, InspectedElection>();
  private readonly readWriteLocks = new Map<string, InspectedReadWriteLock>();
  private readonly semaphores = new Map<string, InspectedSemaphore>();
  private readonly partitionSets: PartitionSetsView;
  private readonly timeline: TimelineEntry[] = [];
  /** Queue nodes already read: a change of a queue of 1000 reads its new nodes and its head, not 1000. */
  private readonly known: KnownNodes = new Map();
  private readonly messages = new Subject<DashboardMessage>();
  private readonly events: Subscription;
  private readonly sessionStates: Subscription;
  /** The session the watches were set on: a new one (the old expired) holds none of them. */
  private sessionId: string | undefined;
  /** Paths with a watch of ours that has not fired yet. */
  private readonly watched = new Set<string>();
  private readonly stale: Stale[] = [];
  /** One persistent recursive watch on the root where the driver and server have them (else one-shot ones per directory). */
  private readonly rootWatch: RootWatch;
  private readonly viewers = new Viewers(() => this.serialized(() => this.readAll()), () => this.rootWatch.remove());
  private settleTimer: NodeJS.Timeout | undefined;
  /** The reading under way, if any (see `serialized`). */
  private reading: Promise<void> | undefined;
  private closed = false;

  constructor(
    @Inject(DASHBOARD_SESSION) private readonly session: ZkSessionClient,
    @Inject(ZK_LOCK_OPTIONS) private readonly options: ResolvedZkLockOptions,
    @Inject(DASHBOARD_OPTIONS) private readonly dashboard: ResolvedDashboardOptions,
    @Inject(LockService) private readonly lockService: LockService,
    events: ZkLockEvents,
  ) {
    this.rootWatch = new RootWatch(session, options.root, (stale) => this.markStale(stale));
    this.partitionSets = new PartitionSetsView(session, options.root);
    this.events = events.events$.subscribe((event) => this.record(timelineEntryOf(event as ZkLockEvent)));
    this.sessionStates = session.state$.subscribe((change) => this.onSessionState(change));
  }

  /** The live view and the recent timeline; the first call (nobody viewing) reads and watches everything first. */
  async snapshot(): Promise<{ view: DashboardView; timeline: TimelineEntry[] }> {
    if (!this.closed) this.viewers.holdForApi();
    await this.viewers.ready();
    return { view: this.view(), timeline: [...this.timeline] };
  }

  /** For one open page: the recent timeline, the view, then every change. Watches stand while a page is open. */
  stream(): Observable<DashboardMessage> {
    return new Observable<DashboardMessage>((subscriber) => {
      const subscription = this.messages.subscribe(subscriber);
      this.viewers.enter();
      const timeline = [...this.timeline];
      this.viewers.ready().then(
        () => {
          for (const entry of timeline) subscriber.next({ kind: 'event', entry });
          subscriber.next({ kind: 'view', view: this.view() });
        },
        (error: unknown) => subscriber.error(error),
      );
      return () => {
        subscription.unsubscribe();
        this.viewers.leave();
      };
    });
  }

  onModuleDestroy(): void {
    this.closed = true;
    this.events.unsubscribe();
    this.sessionStates.unsubscribe();
    clearTimeout(this.settleTimer);
    this.viewers.close();
    this.messages.complete();
  }

  private view(): DashboardView {
    return {
      root: this.options.root,
      at: new Date().toISOString(),
      session: { state: this.session.state, sessionId: this.session.sessionId ?? null },
      locks: withHolderTokens(byName(this.locks), this.lockService.heldLeases()),
      elections: byName(this.elections),
      readWriteLocks: byName(this.readWriteLocks),
      semaphores: byName(this.semaphores),
      partitionSets: this.partitionSets.values(),
    };
  }

  private record(entry: TimelineEntry): void {
    this.timeline.push(entry);
    if (this.timeline.length > this.dashboard.timelineSize) this.timeline.shift();
    this.messages.next({ kind: 'event', entry });
  }

  /** Every category listed, every name read (and watched, while a page is open: by the root watch, set first, or one-shot watches). */
  private async readAll(): Promise<void> {
    await this.rootWatch.set();
    return this.readStale([...this.stale.splice(0), ...EVERYTHING]);
  }

  /** Runs `read` after any reading under way: one reading at a time. */
  private serialized(read: () => Promise<void>): Promise<void> {
    const next = (this.reading ?? Promise.resolve()).then(read, read);
    this.reading = next.catch(() => undefined);
    return next;
  }

  /** Pages see every state of the session; after a new session (the old one expired), everything is read and watched again. */
  private onSessionState(change: SessionStateChange): void {
    if (change.state === 'connected' && change.sessionId !== undefined) {
      const replaced = this.sessionId !== undefined && change.sessionId !== this.sessionId;
      this.sessionId = change.sessionId;
      if (replaced) {
        this.watched.clear();
        if (this.viewers.any) this.viewers.restart().catch((error: unknown) => this.readAgainLater(error, EVERYTHING));
      }
    }
    // The server does not replay what changed meanwhile for a persistent watch (see `RootWatch`).
    if (change.state === 'reconnected' && this.rootWatch.stands) for (const stale of EVERYTHING) this.markStale(stale);
    if (this.viewers.any && !this.closed) void this.viewers.ready().then(() => this.messages.next({ kind: 'view', view: this.view() }), () => undefined);
  }

  /**
   * Reads `stale` again once changes have settled, and sends the new view to the open pages. What
   * a failed reading was to read is marked again, `RETRY_MS` later: a watch that fired is not set
   * again until its name is read, so nothing else would bring the change back.
   */
  private markStale(stale: Stale, delayMs = SETTLE_MS): void {
    if (this.closed || !this.viewers.any) return;
    this.stale.push(stale);
    this.settleTimer ??= setTimeout(() => {
      this.settleTimer = undefined;
      const batch = this.stale.splice(0);
      this.serialized(() => this.readStale(batch)).then(() => this.messages.next({ kind: 'view', view: this.view() }), (error: unknown) => this.readAgainLater(error, batch));
    }, delayMs);
  }

  private readAgainLater(error: unknown, batch: readonly Stale[]): void {
    this.logger.warn(`could not read ${this.options.root} again (trying again in ${RETRY_MS} ms): ${error instanceof Error ? error.message : String(error)}`);
    for (const again of batch) this.markStale(again, RETRY_MS);
  }

  private async readStale(batch: readonly Stale[] = this.stale.splice(0)): Promise<void> {
    const { names, named, categories, partitions } = groupStale(batch);
    const watchList = () => this.watcher(`${this.options.root}/partitions`, { partitionSets: true });
    for (const set of await this.partitionSets.read(partitions, this.known, watchList, (target, set) => this.watch(target, { partitionSet: set }))) this.markStale({ partitionSet: set });
    for (const [category, every] of categories) for (const name of await this.listCategory(category, every)) named(name).add(category);
    const list = [...names];
    for (let i = 0; i < list.length; i += READ_BATCH) await Promise.all(list.slice(i, i + READ_BATCH).map(([name, kinds]) => this.readName(name, kinds)));
  }

  /**
   * Lists a category (and watches it while pages are open); drops the names gone, and returns
   * those to read: the new ones, or with `every` all (the reading that sets the watches).
   */
  private async listCategory(category: Category, every: boolean): Promise<string[]> {
    const path = `${this.options.root}/${category}`;
    let children: string[];
    try {
      children = (await this.session.getChildren(path, this.watcher(path, { category }))).children;
    } catch (error) {
      if (!ZooKeeperError.is(error, 'NONODE')) throw error;
      // Nothing of this kind yet: watch for the category's creation instead (an exists watch).
      this.watched.delete(path);
      const watcher = this.watcher(path, { category });
      if (watcher && (await this.session.exists(path, watcher)) !== null) {
        this.watched.delete(path); // made meanwhile: list it (the exists watch fires once more, harmlessly)
        return this.listCategory(category, every);
      }
      children = [];
    }
    const map = this.mapOf(category);
    const present = new Set(children);
    for (const name of [...map.keys()]) if (!present.has(name)) map.delete(name);
    return every ? children : children.filter((name) => !map.has(name));
  }

  /**
   * Reads everything called `name` again (`kinds`: categories it is known in besides the view's) and
   * records holder changes. One-shot watches go out before the reading, on the same session (served
   * in order): a later change fires them, an earlier one is in the reading. A kind found only by
   * the reading is watched after it, so read once more.
   */
  private async readName(name: string, kinds: ReadonlySet<Category>): Promise<void> {
    const watchedBefore = new Set<string>();
    if (this.viewers.any) for (const target of this.watchTargets(name, kinds)) if (this.watch(target, { name })) watchedBefore.add(target.path);
    if (this.known.size > KNOWN_NODES_MAX) this.known.clear();
    const reading = await inspect(this.session, this.options.root, name, this.known, { partitionSets: false });
    const lock = reading.locks[0];
    const election = reading.elections[0];
    this.noteSuccession('lock', name, this.locks.get(name)?.holder?.node, lock?.holder);
    this.noteSuccession('election', name, this.elections.get(name)?.leader?.node, election?.leader);
    put(this.locks, name, lock);
    put(this.elections, name, election);
    put(this.readWriteLocks, name, reading.readWriteLocks[0]);
    put(this.semaphores, name, reading.semaphores[0]);
    if (!this.viewers.any) return;
    let late = false;
    for (const target of this.watchTargets(name, new Set())) if (!watchedBefore.has(target.path) && this.watch(target, { name })) late = true;
    if (late) this.markStale({ name });
  }

  /** What to watch of `name`: its directories in `kinds` and in the view, and the ready znodes the view shows. */
  private watchTargets(name: string, kinds: ReadonlySet<Category>): WatchTarget[] {
    const readyOf = [this.locks.get(name), this.elections.get(name)].flatMap((queue) => (queue?.ready ? [queue.path] : []));
    return watchTargetsOf(this.options.root, name, (category) => kinds.has(category) || this.mapOf(category).has(name), readyOf);
  }

  /** Sets the watch unless one of ours stands there; true if it sent one. A path gone answers as a change. */
  private watch(target: WatchTarget, stale: Stale): boolean {
    const watcher = this.watcher(target.path, stale);
    if (!watcher) return false;
    const sent = target.kind === 'children' ? this.session.getChildren(target.path, watcher) : this.session.getData(target.path, watcher);
    sent.catch(watcher);
    return true;
  }

  /** A lock's holder or an election's leader changed between two readings: a timeline line for every process's changes. */
  private noteSuccession(kind: 'lock' | 'election', name: string, before: string | undefined, now: { node: string; identity: string | null } | null | undefined): void {
    if (before !== (now?.node ?? undefined)) this.record(successionEntry(kind, name, now));
  }

  private mapOf(category: Category): Map<string, unknown> {
    return { locks: this.locks, elections: this.elections, rwlocks: this.readWriteLocks, semaphores: this.semaphores }[category];
  }

  /** A one-shot watcher for `path`, unless the root watch stands or one of ours does; it fires (or could not be set): `stale` is read again. */
  private watcher(path: string, stale: Stale) {
    if (!this.viewers.any || this.rootWatch.stands || this.watched.has(path)) return undefined;
    this.watched.add(path);
    return () => {
      this.watched.delete(path);
      this.markStale(stale);
    };
  }
}
