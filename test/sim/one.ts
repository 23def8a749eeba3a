import { Logger } from '@nestjs/common';
import { planSchedule, runSchedule } from './schedule.js';
Logger.overrideLogger(false);
const seed = Number(process.argv[2] ?? 1);
const trace = process.argv.includes('--trace') ? (l: string) => console.log(l) : undefined;
const t0 = performance.now();
const result = await runSchedule(planSchedule(seed), trace);
console.log(JSON.stringify({ ...result, config: { ...result.config, plan: result.config.plan.length } }, (_k, v) => (typeof v === 'bigint' ? String(v) : v), 1), (performance.now() - t0).toFixed(0), 'ms');
