/**
 * The parser of `/zookeeper/config` on texts as ZooKeeper writes them (`QuorumVerifier.toString`,
 * `QuorumServer.toString`): the first is copied from a 3.8 ensemble of this suite after a
 * reconfig added a fourth member.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EnsembleConfigError } from '../../src/errors/ensemble-config.error.js';
import { clientAddresses, parseEnsembleConfig } from '../../src/zookeeper/ensemble-config.js';

const REAL = [
  'server.1=127.0.0.1:36595:40311:participant;127.0.0.1:44453',
  'server.2=127.0.0.1:41201:34539:participant;127.0.0.1:38585',
  'server.3=127.0.0.1:36011:43105:participant;127.0.0.1:37281',
  'server.4=127.0.0.1:44685:35585:participant;127.0.0.1:34043',
  'version=100000002',
].join('\n');

describe('parseEnsembleConfig', () => {
  it('reads the members, their client addresses and the version of a real config', () => {
    const config = parseEnsembleConfig(REAL);
    assert.equal(config.version, '100000002');
    assert.deepEqual(config.members.map((m) => [m.id, m.role]), [[1, 'participant'], [2, 'participant'], [3, 'participant'], [4, 'participant']]);
    assert.deepEqual(clientAddresses(config, false), [
      { host: '127.0.0.1', port: 44453 },
      { host: '127.0.0.1', port: 38585 },
      { host: '127.0.0.1', port: 37281 },
      { host: '127.0.0.1', port: 34043 },
    ]);
  });

  it('is empty for a standalone server (its config node holds nothing)', () => {
    assert.deepEqual(parseEnsembleConfig(''), { version: undefined, members: [] });
  });

  it('keeps IPv6 hosts without their brackets, and observers', () => {
    const config = parseEnsembleConfig('server.1=[::1]:2888:3888:participant;[::1]:2181\nserver.2=[fe80::1]:2888:3888:observer;[fe80::2]:2182\nversion=a');
    assert.deepEqual(config.members.map((m) => m.role), ['participant', 'observer']);
    assert.deepEqual(clientAddresses(config, false), [{ host: '::1', port: 2181 }, { host: 'fe80::2', port: 2182 }]);
    assert.equal(config.version, 'a');
  });

  it('leaves out a member without a client address, and puts its quorum host for a wildcard or a port alone', () => {
    const config = parseEnsembleConfig([
      'server.1=zk1:2888:3888:participant',
      'server.2=zk2:2888:3888:participant;0.0.0.0:2181',
      'server.3=zk3:2888:3888;2181',
      'server.4=[2001:db8::4]:2888:3888:participant;[0:0:0:0:0:0:0:0]:2181',
    ].join('\n'));
    assert.equal(config.members[0]!.client, undefined);
    assert.deepEqual(clientAddresses(config, false), [{ host: 'zk2', port: 2181 }, { host: 'zk3', port: 2181 }, { host: '2001:db8::4', port: 2181 }]);
  });

  it('reads the secure client address (`;;host:port` when there is no plain one), and multi-address members', () => {
    const config = parseEnsembleConfig('server.1=a1:2888:3888|a2:2889:3889:participant;a:2181;a:2281\nserver.2=b:2888:3888:participant;;b:2281');
    assert.deepEqual(clientAddresses(config, false), [{ host: 'a', port: 2181 }]);
    assert.deepEqual(clientAddresses(config, true), [{ host: 'a', port: 2281 }, { host: 'b', port: 2281 }]);
  });

  it('ignores the keys of hierarchical quorums', () => {
    const config = parseEnsembleConfig('server.1=a:1:2;a:3\ngroup.1=1\nweight.1=1');
    assert.equal(config.members.length, 1);
  });

  it('refuses what ZooKeeper does not write, naming the line', () => {
    for (const text of ['server.1=a:1', 'server.x=a:1:2;a:3', 'server.1=a:1:2:voter;a:3', 'server.1=a:1:2;a:b', 'server.1=[::1:1:2;a:3', 'version=xyz', 'garbage']) {
      assert.throws(() => parseEnsembleConfig(text), (error: unknown) => error instanceof EnsembleConfigError && error.message.includes(text.split('\n')[0]!), text);
    }
  });
});
