var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
var Ledger_1;
/**
 * A tiny shared "database" for the example: one JSON file per account in a directory that every
 * replica of the app uses. It does a slow read-modify-write, so two unlocked transfers to one
 * account would lose an update: the account lock is what makes it correct.
 *
 * It also shows what fencing tokens are for: each account remembers the newest token that wrote
 * it and refuses writes carrying an older one, so a holder that lost its lock without noticing
 * (paused past the session timeout) cannot overwrite the next holder's work. A real database does
 * the check and the write in one statement:
 *   UPDATE accounts SET balance = $1, fencing_token = $2 WHERE id = $3 AND fencing_token <= $2
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConflictException, Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from './config.js';
const ID = /^[A-Za-z0-9_-]{1,64}$/;
let Ledger = Ledger_1 = class Ledger {
    constructor(config) {
        this.config = config;
        for (const kind of ['accounts', 'batches'])
            fs.mkdirSync(path.join(config.ledgerDir, kind), { recursive: true });
    }
    /** Account and batch ids: 1-64 letters, digits, `_` or `-` (they name files). */
    static isId(id) {
        return typeof id === 'string' && ID.test(id);
    }
    read(id) {
        try {
            return JSON.parse(fs.readFileSync(this.file('accounts', id), 'utf8'));
        }
        catch (error) {
            if (error.code !== 'ENOENT')
                throw error;
            return { id, balance: 0, fencingToken: '0', transfers: 0 };
        }
    }
    /** Adds `amount` to the account; call it only while holding the account's lock. */
    async apply(id, amount, fencingToken, signal) {
        const before = this.read(id);
        await sleep(this.config.stepMs / 2, undefined, { signal }); // the "slow" part of the transfer
        const newest = this.read(id).fencingToken; // (a real database checks in the UPDATE itself)
        if (fencingToken < BigInt(newest)) {
            throw new ConflictException(`stale fencing token ${fencingToken}: account ${id} was written under ${newest}`);
        }
        const after = { id, balance: before.balance + amount, fencingToken: fencingToken.toString(), transfers: before.transfers + 1 };
        // Write-then-rename, so that a reader never sees half a file.
        const temp = `${this.file('accounts', id)}.${process.pid}.tmp`;
        fs.writeFileSync(temp, JSON.stringify(after));
        fs.renameSync(temp, this.file('accounts', id));
        return after;
    }
    /**
     * Whether settlement batch `batch` has run to its end. A batch can be started again after it
     * finished (a leader that dies after the batch but before its leader section completes leaves
     * "running: batch" to the next leader): this record makes that second run a no-op.
     */
    isSettled(batch) {
        return fs.existsSync(this.file('batches', batch));
    }
    markSettled(batch, fencingToken) {
        fs.writeFileSync(this.file('batches', batch), JSON.stringify({ batch, fencingToken: fencingToken.toString() }));
    }
    file(kind, id) {
        if (!Ledger_1.isId(id))
            throw new Error(`bad id ${JSON.stringify(id)}`);
        return path.join(this.config.ledgerDir, kind, `${id}.json`);
    }
};
Ledger = Ledger_1 = __decorate([
    Injectable(),
    __param(0, Inject(APP_CONFIG)),
    __metadata("design:paramtypes", [Object])
], Ledger);
export { Ledger };
//# sourceMappingURL=ledger.js.map