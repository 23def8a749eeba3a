import { InvalidOptionsError } from '../errors/invalid-options.error.js';
import type { NativeZooKeeperConstructor } from './native-binding.js';
import { ProtocolHandle } from './protocol/protocol-handle.js';
import type { Dialer, ZkTlsOptions } from './protocol/server-link.js';
import type { SessionHandle, SessionHandleEvents } from './session-handle.js';
import { ZooKeeperHandle, type ClientLogLevel } from './zookeeper-handle.js';

/**
 * Which client speaks to ZooKeeper: `typescript`, the library's own (the default: no compiler at
 * install, TLS, exact times), or `native`, the `zookeeper` package (the C client), an optional peer dependency.
 */
export type ZkDriver = 'typescript' | 'native';
export const ZK_DRIVERS: readonly ZkDriver[] = ['typescript', 'native'];

export interface SessionHandleOptions {
  readonly connectString: string;
  readonly sessionTimeoutMs: number;
  /** Default `typescript`; a `binding` implies `native`. */
  readonly driver?: ZkDriver;
  /** TLS options (`node:tls`); the TypeScript driver only. */
  readonly tls?: ZkTlsOptions;
  /** Log level of the C client (`native` only). */
  readonly clientLogLevel?: ClientLogLevel;
  /** @internal The C client binding: simulations pass the simulated one (see `ZooKeeperHandleOptions.binding`). */
  readonly binding?: NativeZooKeeperConstructor;
  /** @internal How the TypeScript driver opens links: simulations pass their own. */
  readonly dialer?: Dialer;
}

/** The driver of `options` opens one session (or resumes `resume`). */
export function openSessionHandle(options: SessionHandleOptions, events: SessionHandleEvents, resume?: { id: string; password: string }): SessionHandle {
  if (options.binding || options.driver === 'native') {
    if (options.tls) throw new InvalidOptionsError('tls', "the 'native' driver (the zookeeper package's C client) cannot speak TLS; use driver 'typescript'");
    return new ZooKeeperHandle(options, events, resume);
  }
  return new ProtocolHandle(options, events, resume);
}
