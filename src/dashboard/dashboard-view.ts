import type { InspectedLock, Inspection } from '../cli/inspect.js';
import type { Lease } from '../recipes/lock/lease.js';
import type { SessionState } from '../zookeeper/session-state.js';
import type { TimelineEntry } from './timeline.js';

/** What the page shows: everything under the root (as `inspect` reads it), and this process's session. */
export interface DashboardView extends Omit<Inspection, 'version' | 'locks'> {
  readonly session: { readonly state: SessionState; readonly sessionId: string | null };
  readonly locks: DashboardLock[];
}

/** A lock as `inspect` reads it, with what only its holder's own process knows. */
export interface DashboardLock extends InspectedLock {
  /**
   * The holder's fencing token (decimal) when this process holds the lock, from its lease (the
   * page marks it as held here); otherwise null. Either way it is the holder node's czxid (`InspectedNode.zxid`).
   */
  readonly holderToken: string | null;
}

/** What the page's event stream carries: a timeline entry, or the whole view after a change. */
export type DashboardMessage = { readonly kind: 'view'; readonly view: DashboardView } | { readonly kind: 'event'; readonly entry: TimelineEntry };

/** `locks` with the fencing token of those this process holds (`held`: its leases). */
export function withHolderTokens(locks: readonly InspectedLock[], held: readonly Lease[]): DashboardLock[] {
  const tokens = new Map(held.map((lease) => [lease.path, lease.fencingToken.toString()]));
  return locks.map((lock) => ({ ...lock, holderToken: (lock.holder && tokens.get(`${lock.path}/${lock.holder.node}`)) ?? null }));
}

/** The values of `map`, sorted by name. */
export function byName<T extends { readonly name: string }>(map: ReadonlyMap<string, T>): T[] {
  return [...map.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
