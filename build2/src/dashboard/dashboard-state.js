var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
import { Inject, Injectable, Logger } from '@nestjs/common';
import { Observable, Subject } from 'rxjs';
import { inspect } from '../cli/inspect.js';
import { ZooKeeperError } from '../errors/zookeeper.error.js';
import { ZkLockEvents } from '../observability/zk-lock-events.js';
import { ZK_LOCK_OPTIONS } from '../zk-lock.constants.js';
import { DASHBOARD_OPTIONS, DASHBOARD_SESSION } from './dashboard.constants.js';
import { successionEntry, timelineEntryOf } from './timeline.js';
import { Viewers } from './viewers.js';
import { CATEGORIES, watchTargetsOf } from './watch-targets.js';
const put = (map, name, value) => (value ? map.set(name, value) : map.delete(name));
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
 * Kept up to date by watches, never by polling: one on each category directory (a name appears
 * or goes), each queue directory and each ready znode; one per directory however many wait. A
 * watch that fires marks its name stale; stale names are read again once changes settle
 * (`SETTLE_MS`) and the new view goes to every page. Watches are set only while someone views
 * (`Viewers`: an open page, or a recent `api/state` call, which is served this view too, so that
 * polling it reads nothing in the session the locks share); the package cannot remove a watch:
 * one set before the last viewer left fires once, unheeded.
 * The timeline is this process's events (`ZkLockEvents`) and every holder or leader change seen.
 */
let DashboardState = class DashboardState {
    constructor(session, options, dashboard, events) {
        this.session = session;
        this.options = options;
        this.dashboard = dashboard;
        this.logger = new Logger('ZkLockDashboard');
        this.locks = new Map();
        this.elections = new Map();
        this.readWriteLocks = new Map();
        this.semaphores = new Map();
        this.timeline = [];
        /** Queue nodes already read: a change of a queue of 1000 reads its new nodes and its head, not 1000. */
        this.known = new Map();
        this.messages = new Subject();
        /** Paths with a watch of ours that has not fired yet. */
        this.watched = new Set();
        this.stale = [];
        this.viewers = new Viewers(() => this.serialized(() => this.readAll()));
        this.closed = false;
        this.events = events.events$.subscribe((event) => this.record(timelineEntryOf(event)));
        this.sessionStates = session.state$.subscribe((change) => this.onSessionState(change));
    }
    /** The live view and the recent timeline; the first call (nobody viewing) reads and watches everything first. */
    async snapshot() {
        if (!this.closed)
            this.viewers.holdForApi();
        await this.viewers.ready();
        return { view: this.view(), timeline: [...this.timeline] };
    }
    /** For one open page: the recent timeline, the view, then every change. Watches stand while a page is open. */
    stream() {
        return new Observable((subscriber) => {
            const subscription = this.messages.subscribe(subscriber);
            this.viewers.enter();
            const timeline = [...this.timeline];
            this.viewers.ready().then(() => {
                for (const entry of timeline)
                    subscriber.next({ kind: 'event', entry });
                subscriber.next({ kind: 'view', view: this.view() });
            }, (error) => subscriber.error(error));
            return () => {
                subscription.unsubscribe();
                this.viewers.leave();
            };
        });
    }
    onModuleDestroy() {
        this.closed = true;
        this.events.unsubscribe();
        this.sessionStates.unsubscribe();
        clearTimeout(this.settleTimer);
        this.viewers.close();
        this.messages.complete();
    }
    view() {
        const byName = (map) => [...map.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        return {
            root: this.options.root,
            at: new Date().toISOString(),
            session: { state: this.session.state, sessionId: this.session.sessionId ?? null },
            locks: byName(this.locks),
            elections: byName(this.elections),
            readWriteLocks: byName(this.readWriteLocks),
            semaphores: byName(this.semaphores),
        };
    }
    record(entry) {
        this.timeline.push(entry);
        if (this.timeline.length > this.dashboard.timelineSize)
            this.timeline.shift();
        this.messages.next({ kind: 'event', entry });
    }
    /** Every category listed, every name read (and watched, while a page is open). */
    readAll() {
        for (const category of CATEGORIES)
            this.stale.push({ category, every: true });
        return this.readStale();
    }
    /** Runs `read` after any reading under way: one reading at a time. */
    serialized(read) {
        const next = (this.reading ?? Promise.resolve()).then(read, read);
        this.reading = next.catch(() => undefined);
        return next;
    }
    /** Pages see every state of the session; after a new session (the old one expired), everything is read and watched again. */
    onSessionState(change) {
        if (change.state === 'connected' && change.sessionId !== undefined) {
            const replaced = this.sessionId !== undefined && change.sessionId !== this.sessionId;
            this.sessionId = change.sessionId;
            if (replaced) {
                this.watched.clear();
                if (this.viewers.any)
                    this.viewers.restart().catch((error) => this.readAgainLater(error, CATEGORIES.map((category) => ({ category, every: true }))));
            }
        }
        if (this.viewers.any && !this.closed)
            void this.viewers.ready().then(() => this.messages.next({ kind: 'view', view: this.view() }), () => undefined);
    }
    /** A watch of ours fired (or could not be set): read what it watched again. */
    onChange(path, stale) {
        this.watched.delete(path);
        this.markStale(stale);
    }
    /**
     * Reads `stale` again once changes have settled, and sends the new view to the open pages. What
     * a failed reading was to read is marked again, `RETRY_MS` later: a watch that fired is not set
     * again until its name is read, so nothing else would bring the change back.
     */
    markStale(stale, delayMs = SETTLE_MS) {
        if (this.closed || !this.viewers.any)
            return;
        this.stale.push(stale);
        this.settleTimer ??= setTimeout(() => {
            this.settleTimer = undefined;
            const batch = this.stale.splice(0);
            this.serialized(() => this.readStale(batch)).then(() => this.messages.next({ kind: 'view', view: this.view() }), (error) => this.readAgainLater(error, batch));
        }, delayMs);
    }
    readAgainLater(error, batch) {
        this.logger.warn(`could not read ${this.options.root} again (trying again in ${RETRY_MS} ms): ${error instanceof Error ? error.message : String(error)}`);
        for (const again of batch)
            this.markStale(again, RETRY_MS);
    }
    async readStale(batch = this.stale.splice(0)) {
        const names = new Map();
        const named = (name) => names.get(name) ?? names.set(name, new Set()).get(name);
        const categories = new Map();
        for (const stale of batch) {
            if ('name' in stale)
                named(stale.name);
            else
                categories.set(stale.category, categories.get(stale.category) === true || stale.every === true);
        }
        for (const [category, every] of categories)
            for (const name of await this.listCategory(category, every))
                named(name).add(category);
        const list = [...names];
        for (let i = 0; i < list.length; i += READ_BATCH)
            await Promise.all(list.slice(i, i + READ_BATCH).map(([name, kinds]) => this.readName(name, kinds)));
    }
    /**
     * Lists a category (and watches it while pages are open); drops the names gone, and returns
     * those to read: the new ones, or with `every` all (the reading that sets the watches).
     */
    async listCategory(category, every) {
        const path = `${this.options.root}/${category}`;
        let children;
        try {
            children = (await this.session.getChildren(path, this.watcher(path, { category }))).children;
        }
        catch (error) {
            if (!ZooKeeperError.is(error, 'NONODE'))
                throw error;
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
        for (const name of [...map.keys()])
            if (!present.has(name))
                map.delete(name);
        return every ? children : children.filter((name) => !map.has(name));
    }
    /**
     * Reads everything called `name` again (`kinds`: categories it is known in besides the view's),
     * records holder changes, and keeps its directories watched. The watches go out before the
     * reading, on the same session, which ZooKeeper serves in order: a change after the reading's
     * listings fires them, one before is in the reading (set after, a change between the two would
     * show only at the next). A kind found for the first time is watched after, so read once more.
     */
    async readName(name, kinds) {
        const watchedBefore = new Set();
        if (this.viewers.any)
            for (const target of this.watchTargets(name, kinds))
                if (this.watch(target, name))
                    watchedBefore.add(target.path);
        if (this.known.size > KNOWN_NODES_MAX)
            this.known.clear();
        const reading = await inspect(this.session, this.options.root, name, this.known);
        const lock = reading.locks[0];
        const election = reading.elections[0];
        this.noteSuccession('lock', name, this.locks.get(name)?.holder?.node, lock?.holder);
        this.noteSuccession('election', name, this.elections.get(name)?.leader?.node, election?.leader);
        put(this.locks, name, lock);
        put(this.elections, name, election);
        put(this.readWriteLocks, name, reading.readWriteLocks[0]);
        put(this.semaphores, name, reading.semaphores[0]);
        if (!this.viewers.any)
            return;
        let late = false;
        for (const target of this.watchTargets(name, new Set()))
            if (!watchedBefore.has(target.path) && this.watch(target, name))
                late = true;
        if (late)
            this.markStale({ name });
    }
    /** What to watch of `name`: its directories in `kinds` and in the view, and the ready znodes the view shows. */
    watchTargets(name, kinds) {
        const readyOf = [this.locks.get(name), this.elections.get(name)].flatMap((queue) => (queue?.ready ? [queue.path] : []));
        return watchTargetsOf(this.options.root, name, (category) => kinds.has(category) || this.mapOf(category).has(name), readyOf);
    }
    /** Sets the watch unless one of ours stands there; true if it sent one. A path gone answers as a change. */
    watch(target, name) {
        const watcher = this.watcher(target.path, { name });
        if (!watcher)
            return false;
        const sent = target.kind === 'children' ? this.session.getChildren(target.path, watcher) : this.session.getData(target.path, watcher);
        sent.catch(() => this.onChange(target.path, { name }));
        return true;
    }
    /** A lock's holder or an election's leader changed between two readings: a timeline line for every process's changes. */
    noteSuccession(kind, name, before, now) {
        if (before !== (now?.node ?? undefined))
            this.record(successionEntry(kind, name, now));
    }
    mapOf(category) {
        return { locks: this.locks, elections: this.elections, rwlocks: this.readWriteLocks, semaphores: this.semaphores }[category];
    }
    watcher(path, stale) {
        if (!this.viewers.any || this.watched.has(path))
            return undefined;
        this.watched.add(path);
        return () => this.onChange(path, stale);
    }
};
DashboardState = __decorate([
    Injectable(),
    __param(0, Inject(DASHBOARD_SESSION)),
    __param(1, Inject(ZK_LOCK_OPTIONS)),
    __param(2, Inject(DASHBOARD_OPTIONS)),
    __metadata("design:paramtypes", [Object, Object, Object, ZkLockEvents])
], DashboardState);
export { DashboardState };
//# sourceMappingURL=dashboard-state.js.map