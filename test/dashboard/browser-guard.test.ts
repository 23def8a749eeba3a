/**
 * The dashboard page in headless Chromium behind a token guard (issue 31): the browser's
 * EventSource sends no custom header, so the live stream is refused with a 403 that EventSource
 * does not expose; the page says so ("your guard refused the live stream: 403") instead of
 * "reconnecting…" forever. A token in the page's query string reaches the stream too. With the header on every request (as a proxy adds it), the page shows
 * a lock this process holds with its exact fencing token, marked as held here, and labels each
 * timeline line as this process's event or a change seen in the cluster. A semaphore nobody queues
 * on reads as free, not "0 of ?".
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { Injectable, Module, type CanActivate, type ExecutionContext, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ZkLockDashboardModule } from '../../src/dashboard/index.js';
import { LockService } from '../../src/services/lock.service.js';
import { ZkLockModule } from '../../src/zk-lock.module.js';
import { sharedConnect, testRoot } from '../lock/lock-test-kit.js';

/** What the functions run in the page use of it (this project compiles without the DOM's types). */
declare const document: { querySelector(selector: string): { readonly textContent: string | null } | null };

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const WAIT_MS = 20_000;
const TOKEN = 'let-me-in';

/** Lets in a request carrying the token in a header, or in the query string (`?admin-token=`). */
@Injectable()
class TokenGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{ headers: Record<string, string | undefined>; query: Record<string, unknown> }>();
    return request.headers['x-admin-token'] === TOKEN || request.query['admin-token'] === TOKEN;
  }
}

describe('the dashboard page behind a token guard, in headless Chromium', () => {
  let app: INestApplication;
  let browser: Browser | undefined;
  let url: string;

  before(async () => {
    assert.ok(fs.existsSync(CHROMIUM), `no Chromium at ${CHROMIUM}: install Debian's package (apt-get install chromium), or set CHROMIUM_PATH`);
    @Module({
      imports: [
        ZkLockModule.forRoot({ connect: sharedConnect(), root: testRoot(), sessionTimeoutMs: 4000, isGlobal: true, identity: 'page-app' }),
        ZkLockDashboardModule.forRoot({ guard: TokenGuard }),
      ],
    })
    class AppModule {}
    app = await NestFactory.create(AppModule, { logger: false });
    await app.listen(0, '127.0.0.1');
    url = `${(await app.getUrl()).replace('[::1]', '127.0.0.1')}/zk-lock`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });

  after(async () => {
    await browser?.close();
    await app?.close();
  });

  /** A page whose requests carry the guard's header: only the page itself (`only: 'document'`), or all of them. */
  async function open(only: 'document' | 'all'): Promise<Page> {
    const page = await browser!.newPage();
    await page.route('**/*', (route) => {
      const request = route.request();
      const headers = only === 'all' || request.resourceType() === 'document' ? { ...request.headers(), 'x-admin-token': TOKEN } : request.headers();
      return route.continue({ headers });
    });
    await page.goto(url);
    return page;
  }

  it('says that the guard refused the live stream, with its status, when EventSource cannot send the header', async () => {
    const page = await open('document');
    try {
      await page
        .waitForFunction(() => /refused/.test(document.querySelector('#link')?.textContent ?? ''), undefined, { timeout: WAIT_MS })
        .catch(async (error: unknown) => assert.fail(`the page shows "${await page.locator('#link').textContent()}": ${String(error)}`));
      assert.equal(await page.locator('#link').textContent(), 'your guard refused the live stream: 403');
      assert.match((await page.locator('#link').getAttribute('class')) ?? '', /\bbad\b/);
      assert.match((await page.locator('#link').getAttribute('title')) ?? '', /cookie/, 'says what a guard of a browser page can check');
    } finally {
      await page.close();
    }
  });

  it('passes the query string the page was loaded with on to its stream, so that a query-token guard lets both in', async () => {
    const page = await browser!.newPage();
    try {
      await page.goto(`${url}?admin-token=${TOKEN}#payout`);
      await page
        .waitForFunction(() => document.querySelector('#link')?.textContent === 'live', undefined, { timeout: WAIT_MS })
        .catch(async (error: unknown) => assert.fail(`the page shows "${await page.locator('#link').textContent()}": ${String(error)}`));
    } finally {
      await page.close();
    }
  });

  it("shows this process's lock with its exact fencing token, and says whose each timeline line is", async () => {
    const page = await open('all');
    const held = await app.get(LockService).acquire('payout');
    try {
      await page.waitForFunction(() => document.querySelector('#link')?.textContent === 'live', undefined, { timeout: WAIT_MS });
      const row = '#locks tr[data-name="payout"] td:nth-child(2)';
      await page.waitForFunction((selector) => /page-app/.test(document.querySelector(selector)?.textContent ?? ''), row, { timeout: WAIT_MS });
      const holder = (await page.locator(row).textContent()) ?? '';
      assert.match(holder, new RegExp(`token ${held.fencingToken} \\(held here\\)`), `exact token ${held.fencingToken}: ${holder}`);
      assert.doesNotMatch(holder, /≥/);
      const timeline = '#timeline';
      await page.waitForFunction((selector) => /lock\.holder/.test(document.querySelector(selector)?.textContent ?? ''), timeline, { timeout: WAIT_MS });
      const acquired = (await page.locator('#timeline li', { hasText: 'lock.acquired' }).first().textContent()) ?? '';
      const seen = (await page.locator('#timeline li', { hasText: 'lock.holder' }).first().textContent()) ?? '';
      assert.match(acquired, /this process/, acquired);
      assert.match(seen, /cluster/, seen);
    } finally {
      await held.release();
      await page.close();
    }
  });

  it('shows a semaphore nobody queues on as free, not as "0 of ?"', async () => {
    const page = await open('all');
    try {
      await page.waitForFunction(() => document.querySelector('#link')?.textContent === 'live', undefined, { timeout: WAIT_MS });
      // Its permits are written in the queue nodes: once the last one is gone, nothing says how many there are.
      await (await app.get(LockService).acquireSemaphore('exports', { permits: 3 })).release();
      const cell = '#semaphores tr[data-name="exports"] td:nth-child(2)';
      await page
        .waitForFunction((selector) => /free/.test(document.querySelector(selector)?.textContent ?? ''), cell, { timeout: WAIT_MS })
        .catch(async (error: unknown) => assert.fail(`the permits cell shows "${await page.locator(cell).textContent().catch(() => 'nothing')}": ${String(error)}`));
      assert.equal(await page.locator(cell).textContent(), 'free (nobody queued)');
    } finally {
      await page.close();
    }
  });
});
