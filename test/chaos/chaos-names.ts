/** What the driver and its workers agree on (chaos-worker.ts runs on import, so it exports nothing). */
export const LOCK_NAME = 'counter';
export const ELECTION_NAME = 'chaos';

/** The worker's configuration, passed as its one argument (JSON). */
export interface WorkerConfig {
  w: number;
  inc: number;
  connect: string;
  root: string;
  sessionTimeoutMs: number;
  logFile: string;
}
