/** The worker of `DevServerThread`: starts a dev server with the options it was given, closes it on 'close'. */
import { parentPort, workerData } from 'node:worker_threads';
import { DevServer, type DevServerOptions } from '../../src/dev-server/dev-server.js';

const server = await DevServer.start(workerData as DevServerOptions);
parentPort!.on('message', (message: unknown) => {
  if (message !== 'close') return;
  void server.close().then(() => parentPort!.postMessage('closed'));
});
parentPort!.postMessage({ port: server.port, connectString: server.connectString });
