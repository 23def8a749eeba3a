/** The server's own account of the watches it holds (`wchc`), for tests that must see no watch where none belongs. */
import { CONFIG_NODE } from '../../src/zookeeper/ensemble-config.js';
import { fourLetterWord } from './zk-server.js';

/**
 * The paths each session watches on the first server of `connect`, by session id (hex, without
 * `0x`), from `wchc` (4lw whitelisted by the test harness). Sessions that watch nothing are absent.
 * The watch a session following the ensemble keeps on `/zookeeper/config` (`EnsembleTracker`) is
 * the session's own, not the application's: left out.
 */
export async function watchesBySession(connect: string): Promise<Map<string, string[]>> {
  const [host, port] = connect.split(',')[0]!.split('/')[0]!.split(':');
  const text = await fourLetterWord(host!, Number(port), 'wchc');
  const watches = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of text.split('\n')) {
    const session = /^0x([0-9a-f]+)\s*$/i.exec(line);
    if (session) watches.set(session[1]!.toLowerCase(), (current = []));
    else if (/^\s+\//.test(line) && current && line.trim() !== CONFIG_NODE) current.push(line.trim());
  }
  for (const [session, paths] of watches) if (paths.length === 0) watches.delete(session);
  return watches;
}

/** The paths `sessionId` (hex, as `ZkSession.sessionId` gives it) watches on the server. */
export async function watchedBy(connect: string, sessionId: string): Promise<string[]> {
  return (await watchesBySession(connect)).get(sessionId.toLowerCase().replace(/^0x/, '').replace(/^0+/, '')) ?? [];
}
