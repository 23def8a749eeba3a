import { AsyncLocalStorage } from 'node:async_hooks';
import type { HeldLock } from './held-lock.js';

/** The locks held by the current async call chain, innermost first. */
export interface LockFrame {
  readonly owner: object;
  readonly lock: HeldLock;
  readonly parent: LockFrame | undefined;
}

/**
 * Async-local record of the locks a call chain holds: it makes `withLock` re-entrant within
 * one chain (a nested call for a lock the chain already holds runs under the same lease), while
 * two concurrent chains of one process still queue against each other in ZooKeeper.
 */
export const lockContext = new AsyncLocalStorage<LockFrame>();

/** The innermost lock `owner` holds in this chain, or the one named `name`. */
export function findHeldLock(owner: object, name?: string): HeldLock | undefined {
  for (let frame = lockContext.getStore(); frame; frame = frame.parent) {
    if (frame.owner === owner && (name === undefined || frame.lock.name === name)) return frame.lock;
  }
  return undefined;
}
