import { NativeClientMissingError } from '../errors/native-client-missing.error.js';
import { requireZooKeeperPackage } from './zookeeper-package.cjs';

/**
 * The slice of the `zookeeper` npm package (a binding of the ZooKeeper C client) that the
 * facade uses. The package ships no usable module typings, so they are declared here.
 *
 * Requests go to `handle.native.a_*` directly: the package's JS wrapper methods build a log line
 * with `util.inspect` of every argument on every call, even with no logger installed, which
 * would cost more than the request itself on the hot path.
 */
export interface NativeStat {
  czxid: number;
  mzxid: number;
  pzxid: number;
  ctime: Date;
  mtime: Date;
  version: number;
  cversion: number;
  aversion: number;
  ephemeralOwner: string;
  dataLength: number;
  numChildren: number;
}

/** An ACL entry as `a_set_acl` takes it: the binding reads `perm`... */
export interface NativeAcl {
  perm: number;
  scheme: string;
  auth: string;
}

/** ...but `a_get_acl` answers with `perms` (the package's two directions disagree). */
export interface NativeAclReply {
  perms: number;
  scheme: string;
  auth: string;
}

type RcCallback = (rc: number, error: string) => void;
type WatchCallback = (type: number, state: number, path: string) => void;

export interface NativeBinding {
  a_create(path: string, data: Buffer | string, flags: number, cb: (rc: number, error: string, path: string) => void): number;
  a_exists(path: string, watch: boolean, cb: (rc: number, error: string, stat: NativeStat | null) => void): number;
  aw_exists(path: string, watcher: WatchCallback, cb: (rc: number, error: string, stat: NativeStat | null) => void): number;
  a_get(path: string, watch: boolean, cb: (rc: number, error: string, stat: NativeStat | null, data: Buffer | null) => void): number;
  aw_get(path: string, watcher: WatchCallback, cb: (rc: number, error: string, stat: NativeStat | null, data: Buffer | null) => void): number;
  a_get_children2(path: string, watch: boolean, cb: (rc: number, error: string, children: string[] | null, stat: NativeStat | null) => void): number;
  aw_get_children2(path: string, watcher: WatchCallback, cb: (rc: number, error: string, children: string[] | null, stat: NativeStat | null) => void): number;
  a_set(path: string, data: Buffer | string, version: number, cb: (rc: number, error: string, stat: NativeStat | null) => void): number;
  a_delete_(path: string, version: number, cb: RcCallback): number;
  a_get_acl(path: string, cb: (rc: number, error: string, acl: NativeAclReply[] | null, stat: NativeStat | null) => void): number;
  a_set_acl(path: string, version: number, acl: NativeAcl[], cb: RcCallback): number;
  a_sync(path: string, cb: (rc: number, error: string, path: string) => void): number;
  add_auth(scheme: string, auth: string, cb: RcCallback): number;
}

/** The package's wrapper object: an EventEmitter around the native binding. */
export interface NativeZooKeeper {
  readonly native: NativeBinding;
  readonly client_id: string;
  readonly client_password: string;
  readonly timeout: number;
  readonly state: number;
  init(config: Record<string, unknown>): NativeZooKeeper;
  close(): void;
  on(event: 'connect' | 'connecting', listener: () => void): void;
  on(event: 'close', listener: (handle: unknown, code: number) => void): void;
  removeAllListeners(): void;
}

export interface NativeZooKeeperConstructor {
  new (config: Record<string, unknown>): NativeZooKeeper;
}

/**
 * Loaded lazily so that importing the library never loads native code (see `zookeeper-package.cts`).
 * Throws `NativeClientMissingError` when the package is not installed or did not build.
 */
let ctor: NativeZooKeeperConstructor | undefined;
export function loadNativeZooKeeper(): NativeZooKeeperConstructor {
  if (!ctor) {
    try {
      ctor = requireZooKeeperPackage() as NativeZooKeeperConstructor;
    } catch (error) {
      throw new NativeClientMissingError({ cause: error });
    }
  }
  return ctor;
}

/** Session event type of a watcher callback (`ZOO_SESSION_EVENT`): not a node event. */
export const NATIVE_SESSION_EVENT = -1;
// The package's `close` event codes are the handle's (`HANDLE_CLOSED` in session-handle.ts).
