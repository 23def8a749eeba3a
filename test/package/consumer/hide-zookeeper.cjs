// Preloaded with `node --require`: the `zookeeper` package cannot be found, as on a machine where
// npm could not build it (it is an optional dependency).
const Module = require('node:module');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === 'zookeeper') {
    const error = new Error("Cannot find module 'zookeeper'");
    error.code = 'MODULE_NOT_FOUND';
    throw error;
  }
  return resolve.call(this, request, ...rest);
};
