/** Injection token of the validated options (`ResolvedZkLockOptions`). */
export const ZK_LOCK_OPTIONS = Symbol('nestjs-zk-lock:options');
