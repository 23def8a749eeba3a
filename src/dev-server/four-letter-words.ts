/**
 * ZooKeeper's four-letter words (`FourLetterCommands`): a connection whose first four bytes spell
 * one is a command, not a session (`NIOServerCnxn.checkFourLetterWord`, checked before the first
 * frame only). The dev server serves none of them; it answers each as ZooKeeper answers a word
 * left out of `4lw.commands.whitelist`, so that `echo ruok | nc` hears why instead of nothing.
 */
const WORDS: ReadonlySet<string> = new Set([
  'conf', 'cons', 'crst', 'dirs', 'dump', 'envi', 'gtmk', 'ruok', 'stmk',
  'srst', 'srvr', 'stat', 'wchc', 'wchp', 'wchs', 'mntr', 'isro', 'hash',
]);

/** The four-letter word that the connection's first four bytes spell, if they spell one. */
export function fourLetterWordOf(head: Buffer): string | undefined {
  const word = head.subarray(0, 4).toString('latin1');
  return WORDS.has(word) ? word : undefined;
}

/** What ZooKeeper prints for a word it does not execute (`NopCommand`, a `println`), before it closes the connection. */
export function fourLetterWordRefusal(word: string): Buffer {
  return Buffer.from(`${word} is not executed because it is not in the whitelist.\n`, 'latin1');
}
