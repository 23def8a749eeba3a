/**
 * `reconfig` (OpCode 16) sent by hand to an ensemble started with `reconfigEnabled` (which skips
 * ACLs, so no super-user is needed): a session of its own over a plain socket, the request, the
 * reply, closeSession. The library never sends reconfig, so this lives with the tests, built with
 * the hand-made jute of hand-jute.ts rather than a JVM per change (zkCli.sh).
 */
import net from 'node:net';
import { HandCursor, handBytes, handFrame } from './hand-jute.js';
import type { ZkServer } from './zk-server.js';
import { withTimeout } from './wait.js';

const OP_RECONFIG = 16;
const OP_CLOSE_SESSION = -11;

export interface ReconfigChange {
  /** Server lines to add, e.g. `server.4=127.0.0.1:q:e:participant;127.0.0.1:c`. */
  readonly joining?: readonly string[];
  /** Server ids to remove. */
  readonly leaving?: readonly number[];
}

/** Applies `change` through `via` (any serving member: a follower forwards it to the leader); resolves with the new config text. */
export async function reconfig(via: ZkServer, change: ReconfigChange, timeoutMs = 30_000): Promise<string> {
  const socket = net.connect({ host: '127.0.0.1', port: via.port });
  try {
    return await withTimeout(exchange(socket, change), timeoutMs, `reconfig ${JSON.stringify(change)} through port ${via.port}`);
  } finally {
    socket.destroy();
  }
}

async function exchange(socket: net.Socket, change: ReconfigChange): Promise<string> {
  const frames = frameReader(socket);
  // ConnectRequest: protocol version, last zxid seen, timeout, session id, password, read-only.
  socket.write(handFrame(handBytes([{ int: 0 }, { long: 0n }, { int: 10_000 }, { long: 0n }, { buffer: Buffer.alloc(16) }, { bool: false }])));
  await frames.next('the connect response');
  // ReconfigRequest: joining servers, leaving servers, new members (none: incremental), config id (-1: any).
  const joining = change.joining?.length ? change.joining.join(',') : null;
  const leaving = change.leaving?.length ? change.leaving.join(',') : null;
  const text = (value: string | null) => ({ buffer: value === null ? null : Buffer.from(value, 'utf8') });
  socket.write(handFrame(handBytes([{ int: 1 }, { int: OP_RECONFIG }, text(joining), text(leaving), { buffer: null }, { long: -1n }])));
  const reply = new HandCursor(await frames.next('the reply to reconfig'));
  const xid = reply.int();
  reply.long(); // zxid
  const err = reply.int();
  if (xid !== 1) throw new Error(`reconfig: reply xid ${xid}`);
  if (err !== 0) throw new Error(`reconfig ${JSON.stringify(change)} failed with error code ${err}`);
  const config = reply.buffer()?.toString('utf8') ?? '';
  socket.write(handFrame(handBytes([{ int: 2 }, { int: OP_CLOSE_SESSION }])));
  await frames.next('the reply to closeSession').catch(() => undefined);
  return config;
}

/** Length-prefixed frames off `socket`, one per `next()`. */
function frameReader(socket: net.Socket): { next(awaited: string): Promise<Buffer> } {
  let pending = Buffer.alloc(0);
  let waiter: { awaited: string; resolve(frame: Buffer): void; reject(error: Error): void } | undefined;
  let failure: Error | undefined;
  const pump = () => {
    if (!waiter) return;
    if (pending.length >= 4 && pending.length >= 4 + pending.readInt32BE(0)) {
      const length = pending.readInt32BE(0);
      const frame = pending.subarray(4, 4 + length);
      pending = pending.subarray(4 + length);
      const w = waiter;
      waiter = undefined;
      w.resolve(frame);
    } else if (failure) {
      const w = waiter;
      waiter = undefined;
      w.reject(new Error(`${failure.message} before ${w.awaited}`, { cause: failure }));
    }
  };
  socket.on('data', (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    pump();
  });
  socket.once('error', (error) => ((failure = error), pump()));
  socket.once('close', () => ((failure ??= new Error('the server closed the connection')), pump()));
  return {
    next: (awaited) => new Promise<Buffer>((resolve, reject) => {
      waiter = { awaited, resolve, reject };
      pump();
    }),
  };
}
