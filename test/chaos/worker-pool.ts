/**
 * The driver's side of the worker processes: forks each slot's incarnations (chaos-worker.js),
 * answers their fenced-store requests, knows which one is inside a section or leads, and logs every
 * spawn and exit. Workers are forked while the driver holds no ZooKeeper session (README, "Known
 * limitation": a child would inherit the session's socket), so respawning during the run is safe.
 */
import { fork, type ChildProcess } from 'node:child_process';
import type { ZkDriver } from '../../src/zookeeper/open-session-handle.js';
import fs from 'node:fs';
import path from 'node:path';
import type { EventLog } from './event-log.js';
import type { FencedStore, StoreRequest } from './fenced-store.js';
import type { WorkerConfig } from './chaos-names.js';

export interface Incarnation {
  readonly w: number;
  readonly inc: number;
  readonly pid: number;
  readonly child: ChildProcess;
  /** Resolves once the app is up (or never, if it dies first: bound the wait). */
  readonly ready: Promise<void>;
  readonly exited: Promise<void>;
  alive: boolean;
  /** Killed by the driver (a fault, or stuck at the end). */
  killed: boolean;
  /** Token of the section it reported entering and has not left. */
  section: string | undefined;
  leading: boolean;
  /** The set, read/write and semaphore calls whose body runs now (call id -> what). */
  readonly recipes: Map<number, string>;
}

export type SectionStep = 'entered' | 'checkpointed';

export interface WorkerPoolOptions {
  readonly runDir: string;
  readonly script: string;
  readonly connectFor: (w: number) => string;
  readonly root: string;
  readonly sessionTimeoutMs: number;
  /** The client every worker's module speaks through. */
  readonly driver: ZkDriver;
  readonly store: FencedStore;
  readonly log: EventLog;
}

export class WorkerPool {
  private readonly slots = new Map<number, Incarnation>();
  private readonly incarnations = new Map<number, number>();
  private readonly sectionWaiters = new Set<(incarnation: Incarnation, step: SectionStep) => void>();

  constructor(private readonly options: WorkerPoolOptions) {}

  /** The live incarnation of every slot. */
  live(): Incarnation[] {
    return [...this.slots.values()].filter((incarnation) => incarnation.alive);
  }

  slot(w: number): Incarnation | undefined {
    return this.slots.get(w);
  }

  leader(): Incarnation | undefined {
    return this.live().find((incarnation) => incarnation.leading);
  }

  spawn(w: number): Incarnation {
    const inc = (this.incarnations.get(w) ?? 0) + 1;
    this.incarnations.set(w, inc);
    const { runDir, sessionTimeoutMs, root, driver } = this.options;
    const config: WorkerConfig = { w, inc, connect: this.options.connectFor(w), root, sessionTimeoutMs, driver, logFile: path.join(runDir, `w${w}.${inc}.jsonl`) };
    const stderr = fs.openSync(path.join(runDir, `w${w}.${inc}.stderr`), 'a');
    const child = fork(this.options.script, [JSON.stringify(config)], { stdio: ['ignore', stderr, stderr, 'ipc'], execArgv: [] });
    fs.closeSync(stderr);
    let markReady!: () => void;
    const incarnation: Incarnation = {
      w,
      inc,
      pid: child.pid!,
      child,
      ready: new Promise<void>((resolve) => (markReady = resolve)),
      exited: new Promise<void>((resolve) => {
        child.once('exit', (code, signal) => {
          incarnation.alive = false;
          incarnation.section = undefined;
          incarnation.leading = false;
          incarnation.recipes.clear();
          this.options.log.write({ ev: 'exit', w, inc, pid: child.pid, code, signal, killed: incarnation.killed });
          resolve();
        });
      }),
      alive: true,
      killed: false,
      section: undefined,
      leading: false,
      recipes: new Map(),
    };
    child.on('message', (message: { type: string; token?: string; value?: boolean; call?: number; what?: string }) => {
      switch (message.type) {
        case 'store': {
          const reply = this.options.store.handle(w, inc, message as unknown as StoreRequest);
          if (child.connected) child.send(reply);
          return;
        }
        case 'ready':
          return markReady();
        case 'in-section':
          incarnation.section = message.token;
          for (const wake of [...this.sectionWaiters]) wake(incarnation, 'entered');
          return;
        case 'checkpointed':
          for (const wake of [...this.sectionWaiters]) wake(incarnation, 'checkpointed');
          return;
        case 'out-section':
          incarnation.section = undefined;
          return;
        case 'leader':
          incarnation.leading = message.value === true;
          return;
        case 'recipe-held':
          incarnation.recipes.set(message.call!, message.what!);
          return;
        case 'recipe-free':
          incarnation.recipes.delete(message.call!);
          return;
      }
    });
    this.options.log.write({ ev: 'spawn', w, inc, pid: child.pid });
    this.slots.set(w, incarnation);
    return incarnation;
  }

  /**
   * The next incarnation to report `step` of a section (entered it, or checkpointed in it): of slot
   * `w` if given, else of any slot, and for which `accept` says yes at that moment. Undefined when
   * none does within `timeoutMs`.
   */
  nextSectionStep(step: SectionStep, w: number | undefined, timeoutMs: number, accept: (incarnation: Incarnation) => boolean = () => true): Promise<Incarnation | undefined> {
    return new Promise((resolve) => {
      const wake = (incarnation: Incarnation, reached: SectionStep) => {
        if (reached !== step || (w !== undefined && incarnation.w !== w) || !accept(incarnation)) return;
        finish(incarnation);
      };
      const timer = setTimeout(() => finish(undefined), timeoutMs);
      const finish = (incarnation: Incarnation | undefined) => {
        clearTimeout(timer);
        this.sectionWaiters.delete(wake);
        resolve(incarnation);
      };
      this.sectionWaiters.add(wake);
    });
  }

  /** For the next `ms`, the worker's section keeps working until told the lock may be lost (see chaos-worker.ts). */
  linger(incarnation: Incarnation, ms: number): void {
    if (incarnation.alive && incarnation.child.connected) incarnation.child.send({ type: 'linger', ms });
  }

  /** Sends a message to the worker when it can still receive one; false otherwise. */
  send(incarnation: Incarnation, message: Record<string, unknown>): boolean {
    if (!incarnation.alive || !incarnation.child.connected) return false;
    incarnation.child.send(message);
    return true;
  }

  /**
   * The next message of `type` from the worker (listen before sending what it answers); undefined
   * when none comes within `timeoutMs` or the worker exits first.
   */
  nextMessage(incarnation: Incarnation, type: string, timeoutMs: number): Promise<Record<string, unknown> | undefined> {
    const { child } = incarnation;
    return new Promise((resolve) => {
      const onMessage = (message: Record<string, unknown>) => {
        if (message.type === type) finish(message);
      };
      const finish = (message: Record<string, unknown> | undefined) => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(message);
      };
      const onExit = () => finish(undefined);
      const timer = setTimeout(onExit, timeoutMs);
      child.on('message', onMessage);
      child.once('exit', onExit);
      if (!incarnation.alive) finish(undefined);
    });
  }

  kill(incarnation: Incarnation): void {
    if (!incarnation.alive) return;
    incarnation.killed = true;
    incarnation.child.kill('SIGKILL');
  }

  /**
   * Asks every live worker to finish its section and close its app; a worker that has not exited
   * within `boundMs` is stuck: it is logged as such and killed.
   */
  async stopAll(boundMs: number): Promise<void> {
    await Promise.all(
      this.live().map(async (incarnation) => {
        incarnation.child.kill('SIGCONT'); // harmless when running; never leave one stopped
        if (incarnation.child.connected) incarnation.child.send({ type: 'stop' });
        let timer: NodeJS.Timeout | undefined;
        const inTime = await Promise.race([
          incarnation.exited.then(() => true),
          new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), boundMs))),
        ]);
        clearTimeout(timer);
        if (inTime) return;
        this.options.log.write({ ev: 'stuck', w: incarnation.w, inc: incarnation.inc, note: `did not stop within ${boundMs} ms of being asked` });
        this.kill(incarnation);
        await incarnation.exited;
      }),
    );
  }

  /** Last resort on driver exit: nothing of ours may outlive the run. */
  killAllSync(): void {
    for (const incarnation of this.slots.values()) {
      if (!incarnation.alive) continue;
      try {
        incarnation.child.kill('SIGKILL');
      } catch {
        /* already gone */
      }
    }
  }
}
