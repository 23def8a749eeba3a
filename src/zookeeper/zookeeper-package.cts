// CommonJS on purpose, in every build: the `zookeeper` package (the native C client) is loaded
// lazily, by the first session, and synchronously, so that importing the library, and
// `nestjs-zk-lock/testing` above all, never loads native code. `require` is the way to do that in
// a module that is itself CommonJS; an ES module would need `import.meta.url`, which a CommonJS
// build cannot contain.

/** The `zookeeper` package's export (its `ZooKeeper` class), loaded now if it was not yet. */
export function requireZooKeeperPackage(): unknown {
  return require('zookeeper');
}
