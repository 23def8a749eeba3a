/**
 * A chaos worker's side of the fenced store (fenced-store.ts, in the driver): requests over IPC,
 * answered by `store-reply` messages (the worker passes them to `storeReplied`). `partition`: an op
 * on that partition's counter (the partition workload), else the counter lock's.
 */
import type { StoreCall, StoreReply } from './fenced-store.js';

/** The store refused an operation: an older token than one it has seen, or a failed compare-and-set. */
export class StoreRefusedError extends Error {
  override readonly name = 'StoreRefusedError';
}

let nextId = 1;
const pending = new Map<number, (reply: StoreReply) => void>();

export function store(request: StoreCall): Promise<StoreReply> {
  const id = nextId++;
  return new Promise((resolve) => {
    pending.set(id, resolve);
    process.send!({ ...request, type: 'store', id });
  });
}

/** A `store-reply` message from the driver. */
export function storeReplied(reply: StoreReply): void {
  const resolve = pending.get(reply.id);
  pending.delete(reply.id);
  resolve?.(reply);
}

export async function storeRead(token: string, partition?: number): Promise<number> {
  const reply = await store({ op: 'read', token, ...(partition !== undefined && { partition }) });
  if (!reply.accepted) throw new StoreRefusedError(`read refused (${reply.reason})`);
  return reply.value!;
}

/** Compare-and-set `expect` -> `expect + 1`: a section's own increment, or a repair of `interrupted`'s. */
export async function storeWrite(token: string, expect: number, kind: 'section' | 'repair', interrupted?: string, partition?: number): Promise<void> {
  const reply = await store({ op: 'write', token, expect, value: expect + 1, kind, interrupted, ...(partition !== undefined && { partition }) });
  if (!reply.accepted) throw new StoreRefusedError(`write refused (${reply.reason})`);
}
