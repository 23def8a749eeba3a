import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { listenFailure } from '../errors/dev-server-listen.error.js';

/** The dev server's listening socket: `listen` resolves once it listens, or rejects with a `DevServerListenError` naming the port. */
export class TcpListener {
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly host: string,
    readonly port: number,
  ) {
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
  }

  static listen(host: string, port: number, accept: (socket: Socket) => void): Promise<TcpListener> {
    const server = createServer(accept);
    return new Promise((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) => reject(listenFailure(host, port, error)));
      server.listen({ host, port, exclusive: true }, () => {
        const address = server.address() as AddressInfo;
        resolve(new TcpListener(server, host, address.port));
      });
    });
  }

  /** Stops accepting and resolves once every connection has closed (those still open are destroyed). */
  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      for (const socket of this.sockets) socket.destroy();
    });
  }
}
