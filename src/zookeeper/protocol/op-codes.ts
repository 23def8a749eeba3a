// Numbers of the wire protocol, as the server defines them (`ZooDefs.OpCode`, `ClientCnxn`'s
// reserved xids, `ZooDefs.AddWatchModes`, `Watcher.WatcherType`, `CreateMode`).

export const OpCode = {
  notification: 0,
  create: 1,
  delete: 2,
  exists: 3,
  getData: 4,
  setData: 5,
  getACL: 6,
  setACL: 7,
  getChildren: 8,
  sync: 9,
  ping: 11,
  getChildren2: 12,
  check: 13,
  multi: 14,
  create2: 15,
  checkWatches: 17,
  removeWatches: 18,
  createContainer: 19,
  createTTL: 21,
  multiRead: 22,
  auth: 100,
  setWatches: 101,
  getEphemerals: 103,
  setWatches2: 105,
  addWatch: 106,
  whoAmI: 107,
  closeSession: -11,
  error: -1,
} as const;

/** Reserved xids: replies carrying them are not answers to numbered requests. */
export const Xid = {
  notification: -1,
  ping: -2,
  auth: -4,
  setWatches: -8,
} as const;

/** `CreateMode.toFlag()`. */
export const CreateFlag = {
  persistent: 0,
  ephemeral: 1,
  persistent_sequential: 2,
  ephemeral_sequential: 3,
  container: 4,
  persistent_with_ttl: 5,
  persistent_sequential_with_ttl: 6,
} as const;

/** `ZooDefs.AddWatchModes`. */
export const AddWatchMode = { persistent: 0, persistentRecursive: 1 } as const;

/** `Watcher.WatcherType` as `removeWatches` takes it. */
export const WatcherType = { children: 1, data: 2, any: 3 } as const;

/** `Watcher.Event.EventType` of a notification. */
export const EventType = {
  none: -1,
  nodeCreated: 1,
  nodeDeleted: 2,
  nodeDataChanged: 3,
  nodeChildrenChanged: 4,
  dataWatchRemoved: 5,
  childWatchRemoved: 6,
  persistentWatchRemoved: 7,
} as const;
