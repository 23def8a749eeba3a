/**
 * `POST /transfers {"account":"alice","amount":10}` on any replica: the transfer runs while this
 * replica holds the cluster-wide lock `account:<id>` (fair: concurrent transfers to one account
 * are served in arrival order, whichever replica they hit), and writes the ledger with the lock's
 * fencing token. The response says which replica served it and under which token.
 * `GET /accounts/:id` reads an account.
 */
import { BadRequestException, Body, Controller, Get, HttpCode, Inject, Param, Post, ServiceUnavailableException } from '@nestjs/common';
import { LockService, LockTimeoutError } from '../../src/index.js'; // your app: from 'nestjs-zk-lock'
import { APP_CONFIG, type AppConfig } from './config.js';
import { EventLog, now } from './events.js';
import { Ledger, type Account } from './ledger.js';
import { Outbox } from './outbox.js';

export interface TransferResult {
  readonly replica: string;
  readonly account: string;
  readonly amount: number;
  readonly balance: number;
  /** The lock's fencing token (decimal: JSON has no 64-bit integers). */
  readonly fencingToken: string;
  /** How long the request waited for the lock. */
  readonly waitedMs: number;
}

@Controller()
export class TransfersController {
  constructor(
    private readonly locks: LockService,
    private readonly ledger: Ledger,
    private readonly outbox: Outbox,
    private readonly events: EventLog,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('transfers')
  @HttpCode(200)
  async transfer(@Body() body: { account?: unknown; amount?: unknown } = {}): Promise<TransferResult> {
    const { account, amount } = body;
    if (!Ledger.isId(account)) throw new BadRequestException('account: 1-64 letters, digits, _ or -');
    if (typeof amount !== 'number' || !Number.isFinite(amount)) throw new BadRequestException('amount: a number');
    const requested = now();
    try {
      return await this.locks.withLock(
        `account:${account}`,
        async (lock) => {
          const start = now();
          const after = await this.ledger.apply(account, amount, lock.fencingToken, lock.signal);
          this.events.emit('transfer', { account, amount, token: lock.fencingToken, start, end: now(), balance: after.balance });
          // The message the outbox relay publishes (ids sort by time: the relay keeps their order).
          this.outbox.add({ id: `${Date.now().toString().padStart(15, '0')}-${account}-${after.transfers}`, account, amount });
          return {
            replica: this.config.replica,
            account,
            amount,
            balance: after.balance,
            fencingToken: lock.fencingToken.toString(),
            waitedMs: Math.round(start - requested),
          };
        },
        { waitMs: 10_000 },
      );
    } catch (error) {
      if (error instanceof LockTimeoutError) throw new ServiceUnavailableException(`account ${account} is busy, try again`);
      throw error;
    }
  }

  @Get('accounts/:id')
  account(@Param('id') id: string): Account {
    if (!Ledger.isId(id)) throw new BadRequestException('account: 1-64 letters, digits, _ or -');
    return this.ledger.read(id);
  }
}
