/**
 * The dashboard in a real browser (issue 20): headless Chromium (Debian's package) opens the page
 * of a replica of the example app, three of which run against a real ZooKeeper. It shows the
 * scheduler election's leader and the settlement lock; after a SIGKILL of the leader it shows the
 * next leader once the dead session expired, with the change in the timeline; the "Ask to step
 * down" button, confirmed in the browser's dialog, moves leadership on. Screenshots go to
 * `$DASHBOARD_SCREENSHOTS` when set (the README's come from there), else to a scratch directory.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { EventStream } from '../../scripts/demo/event-stream.js';
import { Replica } from '../../scripts/demo/replica.js';
import { LockClient } from '../../src/recipes/lock/lock-client.js';
import { freePorts } from '../support/zk-server.js';
import { openSession, sharedConnect, testRoot } from '../lock/lock-test-kit.js';

/** What the functions run in the page use of it (this project compiles without the DOM's types). */
declare const document: { querySelector(selector: string): { readonly textContent: string | null } | null; querySelectorAll(selector: string): { readonly length: number } };

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** The flags this machine's closed network needs (see the tool library's notes on Chromium). */
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const SESSION_TIMEOUT_MS = 3000;
const WAIT_MS = 20_000;

describe('the dashboard in headless Chromium, over three replicas of the example app', () => {
  const scratch = fs.mkdtempSync(path.join(process.env.ZK_TEST_RUN_DIR ?? os.tmpdir(), 'dashboard-browser-'));
  const shots = process.env.DASHBOARD_SCREENSHOTS ?? scratch;
  const stream = new EventStream();
  const replicas: Replica[] = [];
  let browser: Browser | undefined;
  let page: Page;

  const root = testRoot();

  before(async () => {
    assert.ok(fs.existsSync(CHROMIUM), `no Chromium at ${CHROMIUM}: install Debian's package (apt-get install chromium), or set CHROMIUM_PATH`);
    const ports = await freePorts(3);
    for (const [i, name] of ['replica-a', 'replica-b', 'replica-c'].entries()) {
      const spec = { name, port: ports[i]!, connect: sharedConnect(), root, sessionTimeoutMs: SESSION_TIMEOUT_MS, ledgerDir: path.join(scratch, 'ledger'), logDir: scratch, stepMs: 100 };
      const from = stream.events.length;
      replicas.push(new Replica(spec, stream));
      // One at a time: replica-a joins the election first, so it leads.
      await stream.next('ready', (e) => e.replica === name, { from, timeoutMs: 45_000, what: `${name} to start` });
    }
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.on('dialog', (dialog) => void dialog.accept()); // the operator confirms
  });

  after(async () => {
    await browser?.close();
    for (const replica of replicas) replica.signal('SIGKILL');
    await Promise.all(replicas.map((replica) => replica.waitExit(10_000)));
  });

  /** The text of the scheduler election's leader cell, once it contains `identity`. */
  const leaderShown = (identity: string) =>
    page.waitForFunction((who) => document.querySelector('#elections tr[data-name="scheduler"] td:nth-child(2)')?.textContent?.includes(who) === true, identity, { timeout: WAIT_MS });
  const timelineHas = (text: string) => page.waitForFunction((t) => document.querySelector('#timeline')?.textContent?.includes(t) === true, text, { timeout: WAIT_MS });

  it('shows the leader, the followers and the settlement lock, live', async () => {
    await page.goto(`${replicas[2]!.url}/zk-lock`);
    await page.waitForFunction(() => document.querySelector('#link')?.textContent === 'live', undefined, { timeout: WAIT_MS });
    await leaderShown('replica-a');
    const followers = await page.locator('#elections tr[data-name="scheduler"] td:nth-child(3)').textContent();
    assert.match(followers ?? '', /replica-b[\s\S]*replica-c/, 'followers in queue order');
    // A settlement batch on the leader runs under the guarded lock `settlement`: its ready znode is dirty while it runs.
    const batch = await replicas[0]!.post('/batches', { batch: 'from-the-test' });
    assert.deepEqual(batch.body, { accepted: 'from-the-test', replica: 'replica-a' });
    await page.waitForFunction(() => /ready|dirty/.test(document.querySelector('#locks tr[data-name="settlement"] td:nth-child(4)')?.textContent ?? ''), undefined, { timeout: WAIT_MS });
    assert.match((await page.locator('#session').textContent()) ?? '', /session connected/);
    assert.match((await page.locator('#elections tr[data-name="scheduler"] td:nth-child(2)').textContent()) ?? '', /token \d+/, "the leader's fencing token");
    await page.screenshot({ path: path.join(shots, 'dashboard.png') });
    // The batch ends and releases the lock: the page says it is free, and when.
    await page.waitForFunction(() => document.querySelector('#locks tr[data-name="settlement"] td:nth-child(2)')?.textContent === '—', undefined, { timeout: WAIT_MS });
    await timelineHas('settlement free');
  });

  it("shows the outbox relay's partition set: its three members, and every partition owned as assigned", async () => {
    await page.waitForFunction(() => document.querySelector('#partitions tr[data-name="outbox"] td:nth-child(3)')?.textContent === 'every partition owned as assigned', undefined, { timeout: WAIT_MS });
    const members = (await page.locator('#partitions tr[data-name="outbox"] td:nth-child(2)').textContent()) ?? '';
    for (const name of ['replica-a', 'replica-b', 'replica-c']) assert.match(members, new RegExp(`${name} [23] / [23]`), `${name} owns 2 or 3 of the 8 partitions`);
    assert.match((await page.locator('#partitions tr[data-name="outbox"] td:nth-child(1)').textContent()) ?? '', /outbox8 partitions/);
  });

  it('after a SIGKILL of the leader, shows the next leader once the dead session expired, and says so in the timeline', async () => {
    replicas[0]!.signal('SIGKILL');
    await leaderShown('replica-b');
    await timelineHas('led by replica-b');
    await page.screenshot({ path: path.join(shots, 'dashboard-after-kill.png') });
  });

  it('stays responsive with 1000 more locks under the root: every row there, the page still answering, all free once their holder is gone', async () => {
    const session = await openSession(sharedConnect(), 10_000);
    try {
      const locks = new LockClient(session, { root, identity: 'bulk' });
      for (let i = 0; i < 1000; i += 100) await Promise.all(Array.from({ length: 100 }, (_, j) => locks.acquire(`bulk-${String(i + j).padStart(4, '0')}`)));
      await page.waitForFunction(() => document.querySelectorAll('#locks tr[data-name^="bulk-"]').length === 1000, undefined, { timeout: 60_000 });
      assert.equal(await page.evaluate(() => 1 + 1), 2, 'the page answers');
    } finally {
      session.close(); // the 1000 locks go with the session
    }
    // Their directories stay (empty containers, until the server's sweep): 1000 rows, all free now.
    await page.waitForFunction(`[...document.querySelectorAll('#locks tr[data-name^="bulk-"] td:nth-child(2)')].every((cell) => cell.textContent === '—')`, undefined, { timeout: 60_000 });
  });

  it('goes live from a link whose hash is not valid percent-encoding (`#%`): the filter shows it as written', async () => {
    const other = await browser!.newPage();
    const errors: string[] = [];
    other.on('pageerror', (error) => errors.push(error.message));
    try {
      await other.goto(`${replicas[2]!.url}/zk-lock#%`);
      await other.waitForFunction(() => document.querySelector('#link')?.textContent === 'live', undefined, { timeout: WAIT_MS }).catch((error: unknown) => {
        throw new Error(`the page never went live (page errors: ${errors.join('; ') || 'none'}): ${String(error)}`);
      });
      assert.equal(await other.locator('#filter').inputValue(), '%');
      assert.deepEqual(errors, [], 'no error in the page');
    } finally {
      await other.close();
    }
  });

  it('asks the leader to step down from the page, confirmed in the dialog', async () => {
    await page.locator('#elections tr[data-name="scheduler"] button').click();
    await timelineHas('asked replica-b');
    await leaderShown('replica-c');
    const filter = page.locator('#filter');
    await filter.fill('settle');
    assert.equal(await page.locator('#elections tr[data-name="scheduler"]').count(), 0, 'the filter hides other names');
    assert.equal(new URL(page.url()).hash, '#settle', 'the filter is in the link');
  });
});
