#!/usr/bin/env node
/**
 * Runs one command beside a real ZooKeeper of its own, for projects outside this repository (the
 * fixture projects' e2e tests, scripts/ci-fixtures.sh), after `npm run build:test` has built
 * build/test/support/zk-server.js:
 *
 *   node scripts/with-zookeeper.mjs <command> [args...]
 *
 * The command runs with ZK_CONNECT set to the server's connect string and inherits stdio; the
 * server is stopped afterwards, and this script exits with the command's code.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [command, ...args] = process.argv.slice(2);
if (!command) {
  process.stderr.write('usage: with-zookeeper.mjs <command> [args...]\n');
  process.exit(64);
}

const { ZkServer } = await import(pathToFileURL(path.join(root, 'build/test/support/zk-server.js')).href);
const server = await ZkServer.start({ heap: '128m' });
let code = 1;
try {
  process.stderr.write(`with-zookeeper: ZooKeeper at ${server.connectString}\n`);
  const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, ZK_CONNECT: server.connectString } });
  code = await new Promise((resolve) => {
    child.on('error', (error) => { process.stderr.write(`with-zookeeper: ${error.message}\n`); resolve(1); });
    child.on('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 128 : 1)));
  });
} finally {
  await server.dispose();
}
process.exit(code);
