/**
 * The simulation runner (`npm run test:sim -- [options]`): production recipes on the simulated
 * ZooKeeper, one seeded schedule after another, invariants checked after every step.
 *
 *   --duration SECONDS   explore seeds for this long (default 60); exit 1 on any violation
 *   --from N             first seed to explore (default: a random one, printed)
 *   --seed N             replay one schedule and print its readable trace
 *   --quiet              with --seed: no trace, only the verdict
 *   --only-faults I,J    with --seed: keep only these faults of the plan (what --shrink prints)
 *   --shrink             with --seed: shrink a failing schedule to fewer faults
 *   --faults K1,K2       explore only these fault kinds (default: every kind, mixed per seed)
 *   --mutant NAME        run on a copy of the build with the defect NAME re-introduced; exits 0
 *                        once a violation is found (the check bites), 1 if none within --duration
 *   --mutants            every mutant in turn, each for up to --duration seconds: the mutation table
 *                        (with --faults, only those fault kinds)
 *   --survivor-duration SECONDS
 *                        with --mutants: how long a declared survivor runs (default --duration);
 *                        its run only shows it still survives, so CI keeps it short
 *   --list-mutants
 *   --partitions N       every schedule runs the partition workload with N partitions (0: none;
 *                        default: a third of the seeds, 3 to 6 partitions)
 *   --driver NAME        typescript (default: the library's client over simulated sockets) or
 *                        native (ZooKeeperHandle over the simulated C client)
 *
 * Nothing sleeps: every timer runs on the simulator's clock, so a seed fully determines a run.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Logger } from '@nestjs/common';
import { ZK_DRIVERS, type ZkDriver } from '../../src/zookeeper/open-session-handle.js';
import { prepareMutant, listMutants } from './mutant-build.js';
import { MUTANTS } from './mutants.js';
import { FAULT_KINDS, planSchedule, runSchedule, type FaultKind, type ScheduleConfig, type ScheduleResult } from './schedule.js';
import { shrinkSchedule } from './shrink.js';

const args = parseArgs(process.argv.slice(2));
const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
Logger.overrideLogger(false);

if (args.listMutants) {
  console.log(listMutants());
} else if (args.mutants) {
  process.exitCode = mutationTable();
} else if (args.mutant !== undefined && args.appliedMutant === undefined) {
  process.exitCode = runMutant(args.mutant);
} else if (args.seed !== undefined) {
  process.exitCode = await replay(args.seed);
} else {
  process.exitCode = await explore();
}

/** Explores seeds for the time budget; prints the figures and the verdict. */
async function explore(): Promise<number> {
  const first = args.from ?? Math.floor(Math.random() * 2 ** 31);
  const budgetMs = args.duration * 1000;
  const started = performance.now();
  const faults: Partial<Record<FaultKind, number>> = {};
  let schedules = 0;
  let steps = 0;
  let simulatedMs = 0;
  const revocations = { releaseRequests: 0, holdersAsked: 0, releaseAborts: 0, stepDownRequests: 0, leadersAsked: 0, stepDowns: 0 };
  const failures: ScheduleResult[] = [];
  let partitionSchedules = 0;
  let assignmentsJudged = 0;
  const label = args.appliedMutant ? `mutant ${args.appliedMutant}` : 'main';
  console.log(`simulation (${label}): seeds from ${first}, for ${args.duration} s${args.faults ? `, faults ${args.faults.join(',')}` : ''}`);
  for (let seed = first; performance.now() - started < budgetMs; seed++) {
    const result = await runSchedule(planSchedule(seed >>> 0, { only: args.faults, driver: args.driver, partitions: args.partitions }));
    schedules++;
    steps += result.steps;
    simulatedMs += result.simulatedMs;
    for (const [kind, n] of Object.entries(result.faults)) faults[kind as FaultKind] = (faults[kind as FaultKind] ?? 0) + n;
    for (const key of Object.keys(revocations) as (keyof typeof revocations)[]) revocations[key] += result.revocations[key];
    if (result.config.partitions > 0) partitionSchedules++;
    assignmentsJudged += result.assignmentsJudged;
    if (result.violations.length > 0) {
      failures.push(result);
      const v = result.violations[0]!;
      console.log(`  seed ${seed >>> 0}: ${v.rule} at ${(v.at / 1000).toFixed(3)} s: ${v.message}`);
      if (args.appliedMutant || failures.length >= 10) break;
    }
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(`schedules: ${schedules} (${(schedules / seconds).toFixed(1)}/s), steps: ${steps} (${Math.round(steps / seconds)}/s), simulated: ${(simulatedMs / 3_600_000).toFixed(2)} h in ${seconds.toFixed(1)} s`);
  console.log(`faults injected: ${FAULT_KINDS.filter((k) => faults[k]).map((k) => `${k} ${faults[k]}`).join(', ') || 'none'}`);
  const r = revocations;
  console.log(`revocation: ${r.releaseRequests} release requests (${r.holdersAsked} marked a holder), ${r.releaseAborts} holders told; ${r.stepDownRequests} step-down requests (${r.leadersAsked} marked a leader), ${r.stepDowns} step-downs`);
  console.log(`partitions: ${partitionSchedules} schedules with the partition workload, ${assignmentsJudged} assignment writes judged for fewest moves`);
  if (failures.length === 0) {
    console.log('verdict: no violation');
    return args.appliedMutant ? 1 : 0;
  }
  console.log(`verdict: ${failures.length} failing schedule(s); replay one with \`npm run test:sim -- --seed ${failures[0]!.config.seed}${args.appliedMutant ? ` --mutant ${args.appliedMutant}` : ''}${args.faults ? ` --faults ${args.faults.join(',')}` : ''}\``);
  return args.appliedMutant ? 0 : 1;
}

/** Replays one seed (its trace, unless --quiet), optionally shrunk. */
async function replay(seed: number): Promise<number> {
  let config: ScheduleConfig = planSchedule(seed, { only: args.faults, driver: args.driver, partitions: args.partitions });
  if (args.onlyFaults) config = { ...config, plan: config.plan.filter((_, i) => args.onlyFaults!.includes(i)) };
  if (args.shrink) {
    const shrunk = await shrinkSchedule(config, (line) => console.log(line));
    if (!shrunk) {
      console.log(`seed ${seed}: no violation to shrink`);
      return 0;
    }
    config = shrunk.config;
    console.log(`shrunk to ${config.plan.length} fault(s): replay with \`npm run test:sim -- --seed ${seed} --only-faults ${shrunk.kept.join(',') || 'none'}\``);
  }
  const trace = args.quiet ? undefined : (line: string) => console.log(line);
  const result = await runSchedule(config, trace);
  console.log(describeConfig(config));
  for (const v of result.violations) console.log(`VIOLATION ${v.rule} at ${(v.at / 1000).toFixed(3)} s: ${v.message}`);
  console.log(`verdict: ${result.violations.length === 0 ? 'no violation' : `${result.violations.length} violation(s)`} (${result.steps} steps, ${(result.simulatedMs / 1000).toFixed(1)} s simulated)`);
  return result.violations.length === 0 ? 0 : 1;
}

/** Runs the explorer on a mutated copy of the build, in a child process (the copy's own modules). */
function runMutant(name: string): number {
  const build = prepareMutant(name, projectRoot);
  const forwarded = process.argv.slice(2).filter((arg, i, all) => arg !== '--mutant' && all[i - 1] !== '--mutant');
  const child = spawnSync(process.execPath, [path.join(build, 'test', 'sim', 'main.js'), '--applied-mutant', name, ...forwarded, ...faultsOf(name), ...(args.partitions === undefined ? partitionsOf(name) : [])], { stdio: 'inherit' });
  return child.status ?? 1;
}

/**
 * Every mutant, each explored until found or for --duration: how long the simulation took to bite.
 * Fails when a mutant survives that is not declared a survivor (`Mutant.survives`).
 */
function mutationTable(): number {
  const rows: string[] = [];
  let missed = 0;
  for (const mutant of MUTANTS) {
    const build = prepareMutant(mutant.name, projectRoot);
    const started = performance.now();
    const duration = mutant.survives ? (args.survivorDuration ?? args.duration) : args.duration;
    const child = spawnSync(process.execPath, [path.join(build, 'test', 'sim', 'main.js'), '--applied-mutant', mutant.name, '--duration', String(duration), '--from', String(args.from ?? 1), ...faultsOf(mutant.name), ...partitionsOf(mutant.name), '--driver', args.driver], {
      encoding: 'utf8',
    });
    const seconds = (performance.now() - started) / 1000;
    const found = /seed (\d+): ([\w-]+)/.exec(child.stdout);
    const explored = /schedules: (\d+)/.exec(child.stdout);
    if (!found && !mutant.survives) missed++;
    const verdict = found ? `found: ${found[2]}` : mutant.survives ? 'survives (declared, see mutants.ts)' : 'NOT FOUND';
    rows.push(`| ${mutant.name} | ${verdict} | ${explored?.[1] ?? '?'} | ${found ? found[1] : '-'} | ${seconds.toFixed(1)} |`);
    console.log(rows.at(-1));
  }
  console.log(['', '| mutant | verdict (first rule broken) | schedules run | failing seed | seconds |', '|---|---|---|---|---|', ...rows].join('\n'));
  return missed === 0 ? 0 : 1;
}

/** The faults a mutant's search injects: `--faults` when given, else those its defect needs (`Mutant.faults`), else every kind. */
function faultsOf(name: string): string[] {
  const faults = args.faults ?? MUTANTS.find((mutant) => mutant.name === name)?.faults;
  return faults ? ['--faults', faults.join(',')] : [];
}

/** A mutant of the partition recipe runs every schedule with the partition workload (`Mutant.partitions`). */
function partitionsOf(name: string): string[] {
  const partitions = args.partitions ?? MUTANTS.find((mutant) => mutant.name === name)?.partitions;
  return partitions === undefined ? [] : ['--partitions', String(partitions)];
}

function describeConfig(c: ScheduleConfig): string {
  return `seed ${c.seed} (${c.driver} driver): ${c.processes} processes, servers ${c.serverIds.join(',')}, session timeout ${c.sessionTimeoutMs} ms, syncLimit ${c.syncLimitTicks} ticks${c.sequenceStart ? `, sequences from ${c.sequenceStart}` : ''}${c.partitions ? `, ${c.partitions} partitions` : ''}${c.moving ? ', a moving ensemble' : ''}, faults for ${c.faultMs} ms: ${c.enabled.join(', ')} (${c.plan.length} planned)`;
}

interface Args {
  duration: number;
  survivorDuration?: number;
  from?: number;
  seed?: number;
  quiet: boolean;
  shrink: boolean;
  onlyFaults?: number[];
  faults?: FaultKind[];
  mutant?: string;
  appliedMutant?: string;
  mutants: boolean;
  listMutants: boolean;
  driver: ZkDriver;
  partitions?: number;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { duration: 60, quiet: false, shrink: false, mutants: false, listMutants: false, driver: 'typescript' };
  const value = (i: number) => {
    const v = argv[i + 1];
    if (v === undefined) throw new Error(`${argv[i]} needs a value`);
    return v;
  };
  const number = (i: number) => {
    const n = Number(value(i));
    if (!Number.isFinite(n) || n < 0) throw new Error(`${argv[i]} needs a number >= 0, got ${argv[i + 1]}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    switch (argv[i]) {
      case '--duration': args.duration = number(i++); break;
      case '--survivor-duration': args.survivorDuration = number(i++); break;
      case '--from': args.from = number(i++); break;
      case '--seed': args.seed = number(i++); break;
      case '--quiet': args.quiet = true; break;
      case '--shrink': args.shrink = true; break;
      case '--only-faults': args.onlyFaults = value(i++) === 'none' ? [] : argv[i]!.split(',').map(Number); break;
      case '--faults': {
        const kinds = value(i++).split(',');
        const unknown = kinds.filter((k) => !(FAULT_KINDS as readonly string[]).includes(k));
        if (unknown.length) throw new Error(`unknown fault kind(s) ${unknown.join(', ')}; known: ${FAULT_KINDS.join(', ')}`);
        args.faults = kinds as FaultKind[];
        break;
      }
      case '--partitions': args.partitions = number(i++); break;
      case '--mutant': args.mutant = value(i++); break;
      case '--applied-mutant': args.appliedMutant = value(i++); break;
      case '--mutants': args.mutants = true; break;
      case '--list-mutants': args.listMutants = true; break;
      case '--driver': {
        const driver = value(i++);
        if (!(ZK_DRIVERS as readonly string[]).includes(driver)) throw new Error(`unknown driver ${driver}; known: ${ZK_DRIVERS.join(', ')}`);
        args.driver = driver as ZkDriver;
        break;
      }
      default: throw new Error(`unknown option ${argv[i]} (see test/sim/main.ts)`);
    }
  }
  if (args.mutant !== undefined && !MUTANTS.some((m) => m.name === args.mutant)) throw new Error(`unknown mutant ${args.mutant}\n${listMutants()}`);
  return args;
}
