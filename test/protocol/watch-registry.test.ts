/** `WatchRegistry`: which watchers a node event fires, and a throwing watcher's isolation. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EventType } from '../../src/zookeeper/protocol/op-codes.js';
import { WatchRegistry } from '../../src/zookeeper/protocol/watch-registry.js';
import type { WatchEvent } from '../../src/zookeeper/types.js';

describe('WatchRegistry', () => {
  it('a watcher that throws neither stops the others nor escapes: its error is reported', () => {
    const errors: unknown[] = [];
    const registry = new WatchRegistry((error) => errors.push(error));
    const fired: WatchEvent[] = [];
    registry.add('data', '/a', () => {
      throw new Error('a bug in a watcher');
    });
    registry.add('data', '/a', (event) => fired.push(event));
    registry.dispatch(EventType.nodeDataChanged, '/a');
    assert.deepEqual(fired, [{ type: 'changed', path: '/a' }]);
    assert.equal(errors.length, 1);
    assert.equal(registry.count, 0);
  });

  it('keeps the server\'s watch while a watched read of the path is unanswered, not longer', () => {
    const registry = new WatchRegistry(() => assert.fail('no watcher throws'));
    const first = () => undefined;
    registry.add('data', '/a', first);
    const answered = registry.sending('exist', '/a'); // an exists watch is removed as a data watch
    const childAnswered = registry.sending('child', '/b');
    assert.equal(registry.remove('/a', ['data'], first).serverStillNeeded, true, 'the read in flight sets it again on the server');
    assert.equal(registry.remove('/b', ['data']).serverStillNeeded, false, 'a child read does not need a data watch');
    answered();
    answered(); // once is what counts
    assert.equal(registry.remove('/a', ['data']).serverStillNeeded, false);
    assert.equal(registry.remove('/b', ['child']).serverStillNeeded, true);
    childAnswered();
    assert.equal(registry.remove('/b', ['child']).serverStillNeeded, false);
  });

  it('fires data and exist watches on a change, every kind on a deletion, child watches on a child change, recursive ones on nodes below', () => {
    const registry = new WatchRegistry(() => assert.fail('no watcher throws'));
    const seen: string[] = [];
    const record = (name: string) => (event: WatchEvent) => seen.push(`${name}:${event.type}:${event.path}`);
    registry.add('data', '/a', record('data'));
    registry.add('exist', '/a', record('exist'));
    registry.add('child', '/a', record('child'));
    registry.addPersistent('/', true, record('recursive'));
    registry.dispatch(EventType.nodeChildrenChanged, '/a');
    registry.dispatch(EventType.nodeDeleted, '/a');
    assert.deepEqual(seen, ['child:child:/a', 'data:deleted:/a', 'exist:deleted:/a', 'recursive:deleted:/a']);
    assert.equal(registry.count, 1, 'the recursive watch stays');
  });
});
