"use strict";
// CommonJS on purpose, in every build: the `zookeeper` package (the native C client) is loaded
// lazily, by the first session, and synchronously, so that importing the library, and
// `nestjs-zk-lock/testing` above all, never loads native code. `require` is the way to do that in
// a module that is itself CommonJS; an ES module would need `import.meta.url`, which a CommonJS
// build cannot contain.
Object.defineProperty(exports, "__esModule", { value: true });
exports.requireZooKeeperPackage = requireZooKeeperPackage;
/** The `zookeeper` package's export (its `ZooKeeper` class), loaded now if it was not yet. */
function requireZooKeeperPackage() {
    return require('zookeeper');
}
//# sourceMappingURL=zookeeper-package.cjs.map