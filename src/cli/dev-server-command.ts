import { DevServer } from '../dev-server/dev-server.js';
import { ZkLockError } from '../errors/zk-lock.error.js';
import type { DevServerCommand } from './args.js';

/** What the dev server is and is not, said at every start (stderr: stdout carries the connect string alone). */
function notice(server: DevServer, command: DevServerCommand): string {
  const where =
    command.dataFile === undefined
      ? 'in memory (gone when it stops; no transaction log)'
      : `in memory, its persistent nodes saved to ${command.dataFile} (no transaction log: nothing else survives a stop)`;
  return [
    `nestjs-zk-lock dev-server: a DEVELOPMENT ZooKeeper on ${server.connectString}, not for production.`,
    `  One member (no replication, no failover); the tree is ${where}.`,
    '  No TLS, no SASL (digest auth and ACLs only). TTL nodes, multiRead, whoAmI and reconfig are refused',
    '  with ZooKeeper\'s UNIMPLEMENTED (-6); four-letter words (ruok, srvr...) as not in the whitelist.',
    '  Sessions expire in real time; Ctrl-C stops it.',
    '',
  ].join('\n');
}

/**
 * `nestjs-zk-lock dev-server`: runs a `DevServer` until SIGINT or SIGTERM, then closes it (the
 * data file written a last time). Prints the connect string on a line of its own on stdout, so
 * that a script can read it (with `--port 0`, the port picked).
 */
export async function runDevServer(command: DevServerCommand): Promise<number> {
  let server: DevServer;
  try {
    server = await DevServer.start({ host: command.host, port: command.port, dataFile: command.dataFile });
  } catch (error) {
    if (!(error instanceof ZkLockError)) throw error;
    process.stderr.write(`nestjs-zk-lock: ${error.message}\n`);
    return 1;
  }
  process.stderr.write(notice(server, command));
  process.stdout.write(`${server.connectString}\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.close();
  process.stderr.write('nestjs-zk-lock dev-server: stopped\n');
  return 0;
}
