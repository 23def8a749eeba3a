/**
 * What a conformance scenario records, in a form that two runs (two targets) can be compared in:
 * paths relative to the scenario's root, session ids as the names the scenario gave them, times
 * dropped, and zxids (`bigint` while recording) replaced at the end by their rank among all the
 * zxids of the transcript, so that only their order and equalities count.
 */
import { ZooKeeperError } from '../../src/errors/zookeeper.error.js';
import type { Watcher, ZkStat } from '../../src/zookeeper/types.js';
import { withTimeout } from '../support/wait.js';
import type { ScenarioClient, ScenarioEnv } from './target.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** Json that may still hold zxids. */
export type Recorded = null | boolean | number | string | bigint | readonly Recorded[] | { readonly [key: string]: Recorded };

const WAIT_MS = 10_000;

export class Transcript {
  private readonly owners = new Map<string, string>([['0', 'none']]);

  constructor(private readonly root: string) {}

  /** From now on, nodes owned by `client`'s session show `owner: name`. */
  name(client: ScenarioClient, name: string): void {
    this.owners.set(client.zk.sessionId, name);
  }

  /** `<root>/a/b` as `a/b`, the root itself as `.`. */
  rel(path: string): string {
    if (path === this.root) return '.';
    return path.startsWith(`${this.root}/`) ? path.slice(this.root.length + 1) : `!outside-root:${path}`;
  }

  /** A stat without its times; `null` (exists on a missing node) stays `null`. */
  stat(stat: ZkStat | null): Recorded {
    if (!stat) return null;
    return {
      czxid: stat.czxid,
      mzxid: stat.mzxid,
      pzxid: stat.pzxid,
      version: stat.version,
      cversion: stat.cversion,
      aversion: stat.aversion,
      owner: this.owners.get(stat.ephemeralOwner) ?? 'unknown session',
      dataLength: stat.dataLength,
      numChildren: stat.numChildren,
    };
  }

  /** Children sorted: the server lists them in no documented order (a Java HashSet's). */
  children(listing: { children: string[]; stat: ZkStat }): Recorded {
    return { children: [...listing.children].sort(), stat: this.stat(listing.stat) };
  }

  /** The request's value through `view` (default 'ok'), or the name of the error code it failed with. */
  async outcome<T>(request: Promise<T>, view: (value: T) => Recorded = () => 'ok'): Promise<Recorded> {
    try {
      return view(await request);
    } catch (error) {
      if (error instanceof ZooKeeperError) return error.zkCode;
      throw error;
    }
  }

  /** A created path, relative; or the error code. */
  created(request: Promise<string>): Promise<Recorded> {
    return this.outcome(request, (path) => this.rel(path));
  }

  /** A watcher that records its node events as `<type> <relative path>`. */
  watch(): WatchLog {
    return new WatchLog((path) => this.rel(path));
  }
}

export class WatchLog {
  readonly events: string[] = [];
  readonly watcher: Watcher;
  private wake: (() => void) | undefined;

  constructor(rel: (path: string) => string) {
    this.watcher = (event) => {
      this.events.push(`${event.type} ${rel(event.path)}`);
      this.wake?.();
    };
  }

  /** Resolves with the events once there are `count`; bounded. */
  async until(count = 1): Promise<string[]> {
    if (this.events.length < count) {
      const arrived = new Promise<void>((resolve) => {
        this.wake = () => {
          // Resumes from a macrotask, outside the C client's processing of the event: see
          // ProxiedClient.next in zookeeper-target.ts for the crash that avoids.
          if (this.events.length >= count) setImmediate(resolve);
        };
      });
      await withTimeout(arrived, WAIT_MS, `watch events: ${count} expected, got [${this.events.join(', ')}]`);
    }
    return [...this.events];
  }
}

/** Replaces every zxid by `z<rank>`: its position among the distinct zxids of `value`, from 1. */
export function rankZxids(value: Recorded): Json {
  const zxids = new Set<bigint>();
  const collect = (item: Recorded): void => {
    if (typeof item === 'bigint') zxids.add(item);
    else if (Array.isArray(item)) item.forEach(collect);
    else if (item && typeof item === 'object') Object.values(item).forEach(collect);
  };
  collect(value);
  const ranks = new Map([...zxids].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)).map((zxid, i) => [zxid, `z${i + 1}`]));
  const replace = (item: Recorded): Json => {
    if (typeof item === 'bigint') return ranks.get(item)!;
    if (Array.isArray(item)) return item.map(replace);
    if (item && typeof item === 'object') return Object.fromEntries(Object.entries(item).map(([key, inner]) => [key, replace(inner)]));
    return item;
  };
  return replace(value);
}

/** A request of the default driver that the `zookeeper` package's C client cannot send (`SessionHandle`'s optional methods). */
export type Power = 'create2' | 'multi' | 'removeWatches' | 'addWatch';

export interface Scenario {
  readonly name: string;
  readonly run: (env: ScenarioEnv) => Promise<Json>;
  /** The real server's transcript, checked against ZooKeeper's documented semantics. */
  readonly expected: Json;
  /** The requests it sends that only the default driver has: targets on the native driver skip it. */
  readonly needs: readonly Power[];
}

/** A scenario whose body records into a fresh Transcript; zxids are ranked when it returns. */
export function scenario(name: string, body: (env: ScenarioEnv, t: Transcript) => Promise<Recorded>, expected: Json, options: { needs?: readonly Power[] } = {}): Scenario {
  return { name, run: async (env) => rankZxids(await body(env, new Transcript(env.root))), expected, needs: options.needs ?? [] };
}
