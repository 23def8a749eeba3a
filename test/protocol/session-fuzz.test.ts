/**
 * Hostile bytes against `ProtocolSession` itself, through a scripted `Dialer` (no sockets, no
 * server): after a handshake, two requests are in flight and the "server" sends any mix of
 * their replies, pings, notifications, noise and bad lengths, mutated and cut into any chunks.
 * Whatever comes, no error escapes the link's data callback, a request only ever settles with
 * its value or a `ZooKeeperError`, a dropped connection fails every request in flight with
 * CONNECTIONLOSS and dials the next server, and `close()` settles whatever is left.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import fc from 'fast-check';
import { ZooKeeperError } from '../../src/errors/zookeeper.error.js';
import { existsOp, getDataOp } from '../../src/zookeeper/protocol/operations.js';
import { ProtocolSession } from '../../src/zookeeper/protocol/protocol-session.js';
import type { Dialer, ServerLinkEvents } from '../../src/zookeeper/protocol/server-link.js';
import { handBytes, handFrame, sampleStat, statFields, type HandField } from '../support/hand-jute.js';
import { waitFor } from '../support/wait.js';

interface ScriptedLink {
  readonly events: ServerLinkEvents;
  readonly sent: Buffer[];
  closed: boolean;
}

/** The session dials on a timer (0 ms, or its pause between rounds): wait, bounded, for `count` links. */
const dialed = (links: unknown[], count: number) => waitFor(() => links.length >= count, { timeoutMs: 5000, intervalMs: 1, message: `${count} dials` });

/** A reply frame: header, then body. */
const reply = (xid: number, err: number, body: HandField[]) => handFrame(handBytes([{ int: xid }, { long: 5n }, { int: err }, ...body]));
const segment = fc.oneof(
  fc.constantFrom(1, 2).map((xid) => reply(xid, 0, [{ buffer: Buffer.from('d') }, ...statFields(sampleStat(1))])), // getData's reply (xid 1)
  fc.constantFrom(1, 2).map((xid) => reply(xid, 0, statFields(sampleStat(2)))), // exists' reply (xid 2)
  fc.constantFrom(1, 2).map((xid) => reply(xid, -101, [])),
  fc.constant(reply(-2, 0, [])), // ping
  fc.constant(reply(-1, 0, [{ int: 1 }, { int: 3 }, { ustring: '/a' }])), // notification
  fc.uint8Array({ maxLength: 24 }).map((noise) => Buffer.from(noise)),
  fc.constantFrom(-1, 0x7fffffff, 0).map((length) => handBytes([{ int: length }])),
);
const hostile = fc.record({
  segments: fc.array(segment, { maxLength: 5 }),
  edits: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 3 }),
  cuts: fc.array(fc.nat(), { maxLength: 6 }),
});

/** A session connected through `links[0]`, with a getData (xid 1) and an exists (xid 2) in flight. */
async function connectedSession() {
  const links: ScriptedLink[] = [];
  const dialer: Dialer = (_address, events) => {
    const link: ScriptedLink = { events, sent: [], closed: false };
    links.push(link);
    return { send: (frame) => void link.sent.push(frame), close: () => ((link.closed = true), events.closed()) };
  };
  const ended: number[] = [];
  const session = new ProtocolSession(
    // A long timeout: no connect, ping or read timer fires during a run.
    { hosts: [{ host: 'a', port: 1 }, { host: 'b', port: 2 }], timeoutMs: 60_000, dialer, random: () => 0.999 },
    {
      connected: () => undefined,
      disconnected: () => undefined,
      closed: (code) => void ended.push(code),
      notification: () => undefined,
      sent: () => undefined,
      answered: () => undefined,
      attemptFailed: () => undefined,
      watchesToRestore: () => ({ data: [], exist: [], child: [], persistent: [], persistentRecursive: [] }),
    },
  );
  await dialed(links, 1);
  links[0]!.events.opened();
  links[0]!.events.data(handFrame(handBytes([{ int: 0 }, { int: 60_000 }, { long: 77n }, { buffer: Buffer.alloc(16, 1) }, { bool: false }])));
  assert.ok(session.isConnected);
  const outcomes: ('pending' | 'value' | ZooKeeperError)[] = ['pending', 'pending'];
  const requests = [session.send(getDataOp('/a', false)), session.send(existsOp('/b', false))].map((request, i) =>
    request.then(
      () => void (outcomes[i] = 'value'),
      (error: unknown) => {
        assert.ok(error instanceof ZooKeeperError, `request ${i} failed with ${String(error)}`);
        outcomes[i] = error;
      },
    ),
  );
  return { session, links, ended, outcomes, requests };
}

it('a session fed hostile bytes only ever settles requests with values or ZooKeeperErrors, and redials after a drop', async () => {
  const seen = { runs: 0, dropped: 0, answered: 0, authFailed: 0, connectionLoss: 0 };
  await fc.assert(
    fc.asyncProperty(hostile, async ({ segments, edits, cuts }) => {
      const { session, links, ended, outcomes, requests } = await connectedSession();
      let dropped = false;
      try {
        const stream = Buffer.concat(segments);
        for (const [at, value] of edits) if (stream.length > 0) stream[at % stream.length] = value;
        const points = [...new Set(cuts.map((c) => c % (stream.length + 1))), stream.length].sort((a, b) => a - b);
        let from = 0;
        for (const to of points) {
          links[0]!.events.data(stream.subarray(from, to)); // a throw here fails the property
          from = to;
        }
        if (ended.length > 0) {
          // A mutated xid can make an unsolicited AUTHFAILED (xid -4, err -115): that ends the session, as in Java's ClientCnxn.
          assert.deepEqual(ended, [-113]);
          seen.authFailed += 1;
        } else if (links[0]!.closed) {
          dropped = true;
          seen.dropped += 1;
          await dialed(links, 2); // a dropped connection dials the next server
          // Answered before the drop (a value or the server's code), or failed by it with CONNECTIONLOSS: none left waiting.
          for (const outcome of outcomes) assert.notEqual(outcome, 'pending', 'a request in flight outlived its connection');
          seen.connectionLoss += outcomes.filter((o) => o instanceof ZooKeeperError && o.zkCode === 'CONNECTIONLOSS').length;
        }
        if (outcomes.includes('value')) seen.answered += 1;
      } finally {
        session.close(); // clears its timers even when the run failed
        links.at(-1)!.events.closed(); // the server ends the link; close() then finishes at once
      }
      await Promise.all(requests);
      assert.ok(!outcomes.includes('pending'), 'close() left a request pending');
      assert.equal(ended.length, 1);
      assert.equal(links.length, dropped ? 2 : 1, 'dials: one, or two after a drop');
      seen.runs += 1;
    }),
    { numRuns: 200 },
  );
  assert.equal(seen.runs, 200);
  // The generators reach both sides: some runs drop the connection, some get answers.
  assert.ok(seen.dropped > 0 && seen.answered > 0 && seen.connectionLoss > 0, JSON.stringify(seen));
});
