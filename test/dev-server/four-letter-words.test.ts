/**
 * Four-letter words (`echo ruok | nc host 2181`, the health check of many compose files): the dev
 * server serves none, and says so as ZooKeeper says it of a word outside
 * `4lw.commands.whitelist` (`NIOServerCnxn.checkFourLetterWord`: a `NopCommand` printing
 * "<word> is not executed because it is not in the whitelist.", then the connection closes),
 * instead of closing the connection without a word. The first four bytes of a connection are a
 * four-letter word when they spell one of `FourLetterCommands`; anything else is a frame length.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { DevServer } from '../../src/dev-server/dev-server.js';
import { withTimeout } from '../support/wait.js';
import { WireClient } from './wire-client.js';

const WAIT_MS = 5000;

/** Sends `bytes` on a new connection, as `nc` does, and resolves with all the server wrote once it closed. */
function ask(server: DevServer, bytes: string): Promise<string> {
  const socket = connect({ host: '127.0.0.1', port: server.port });
  const chunks: Buffer[] = [];
  socket.on('data', (chunk) => chunks.push(chunk));
  socket.on('connect', () => socket.write(bytes));
  const closed = new Promise<string>((resolve, reject) => {
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
  return withTimeout(closed, WAIT_MS, `the server did not close the connection after '${bytes}'`).finally(() => socket.destroy());
}

describe('dev server: four-letter words', () => {
  let server: DevServer;

  before(async () => {
    server = await DevServer.start({ port: 0 });
  });
  after(async () => {
    await server?.close();
  });

  it('answers each word with ZooKeeper\'s refusal of a word outside the whitelist, then closes', async () => {
    for (const word of ['ruok', 'srvr', 'stat', 'mntr', 'conf', 'wchc']) {
      assert.equal(await ask(server, word), `${word} is not executed because it is not in the whitelist.\n`);
    }
    // nc sends the line's newline too: the word is the first four bytes all the same.
    assert.equal(await ask(server, 'ruok\n'), 'ruok is not executed because it is not in the whitelist.\n');
  });

  it('takes other first bytes as a frame, as before', async () => {
    // Not a word: a length far beyond jute.maxbuffer, so the server closes without an answer, as ZooKeeper does.
    assert.equal(await ask(server, 'abcd'), '');
    const client = await WireClient.open(server);
    client.destroy();
  });
});
