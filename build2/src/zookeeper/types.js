export const ZK_PERMS = { READ: 1, WRITE: 2, CREATE: 4, DELETE: 8, ADMIN: 16, ALL: 31 };
/** Anyone may do anything (ZooKeeper's default for every create made through the package). */
export const OPEN_ACL_UNSAFE = [{ perms: ZK_PERMS.ALL, scheme: 'world', id: 'anyone' }];
/** Only the identities authenticated on the creating session. */
export const CREATOR_ALL_ACL = [{ perms: ZK_PERMS.ALL, scheme: 'auth', id: '' }];
/**
 * Default bound of one record: half of ZooKeeper's default `jute.maxbuffer` (1 MiB - 1), which
 * bounds a whole request packet (header, path, ACL, data) and every transaction in the server's
 * log and snapshots; the half leaves room for those, and znodes meant for coordination hold far less.
 */
export const DEFAULT_MAX_RECORD_BYTES = 512 * 1024;
//# sourceMappingURL=types.js.map