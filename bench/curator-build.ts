/**
 * The harness's side of the Curator peer (curator-peer.ts): which workloads it runs, their roots,
 * and compiling bench/peers/*.java with javac against Debian's Curator jars once per run, or why
 * it cannot (then the run goes on without the peer and says so).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CURATOR_JARS, CURATOR_MISSING, JAVAC } from '../test/support/java.js';

export const CURATOR_WORKLOADS = ['W1', 'W1A', 'W2', 'W7', 'W8'] as const;

/** Curator's root of a workload: `/bench/curator-w1` …; the harness creates them as it creates `/bench/w1` …. */
export const curatorRoot = (workload: string): string => `/bench/curator-${workload.toLowerCase()}`;

/** The Java sources (not compiled into build/). */
const PEERS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'bench', 'peers');
const COMPILE_TIMEOUT_MS = 180_000;

export type CuratorBuild = { classes: string } | { skipped: string };

/** Compiles the peer into `<dir>/curator-classes`; never throws: a failure is the reason to skip. */
export function buildCurator(dir: string): CuratorBuild {
  if (CURATOR_MISSING) return { skipped: CURATOR_MISSING };
  const classes = path.join(dir, 'curator-classes');
  fs.mkdirSync(classes, { recursive: true });
  const sources = fs.readdirSync(PEERS_DIR).filter((name) => name.endsWith('.java')).map((name) => path.join(PEERS_DIR, name));
  const javac = spawnSync(JAVAC, ['-d', classes, '-cp', CURATOR_JARS.join(':'), ...sources], { encoding: 'utf8', timeout: COMPILE_TIMEOUT_MS });
  if (javac.error) return { skipped: `${JAVAC} could not run: ${javac.error.message}` };
  if (javac.status !== 0) return { skipped: `javac failed (exit ${javac.status ?? javac.signal}): ${javac.stderr.trim().slice(0, 2000)}` };
  return { classes };
}
