/**
 * The example app: one replica of a small payments service. Run several against one ZooKeeper:
 *
 *   node build/examples/app/main.js --connect 127.0.0.1:2181 --replica a --port 3001
 *   node build/examples/app/main.js --connect 127.0.0.1:2181 --replica b --port 3002
 *
 * (see config.ts for every flag and environment variable). `npm run demo` runs three of them.
 */
import 'reflect-metadata';
import { ConsoleLogger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ZkSession } from '../../src/index.js'; // your app: from 'nestjs-zk-lock'
import { AppModule } from './app.module.js';
import { loadConfig } from './config.js';
import { EventLog } from './events.js';
/** Nest's usual log lines, all on stderr: stdout then carries nothing but event lines. */
class StderrLogger extends ConsoleLogger {
    printMessages(messages, context, logLevel, _stream, errorStack) {
        super.printMessages(messages, context, logLevel, 'stderr', errorStack);
    }
}
async function bootstrap() {
    const config = loadConfig();
    const logLevels = ['log', 'warn', 'error', 'fatal']; // debug would log every follower's skipped tick
    const logger = config.events === 'stdout' ? new StderrLogger(config.replica, { logLevels }) : new ConsoleLogger(config.replica, { logLevels });
    const app = await NestFactory.create(AppModule.register(config), { logger });
    // SIGTERM / SIGINT run app.close(): leadership and locks are handed over at once, not after a
    // session timeout. (ZkLockModule installs no signal handlers of its own.)
    app.enableShutdownHooks();
    await app.listen(config.port, '127.0.0.1');
    const session = app.get(ZkSession);
    app.get(EventLog).emit('ready', { port: config.port, pid: process.pid, sessionId: session.sessionId, sessionTimeoutMs: session.sessionTimeoutMs });
    logger.log(`listening on http://127.0.0.1:${config.port} (ZooKeeper ${config.connect}, session timeout ${session.sessionTimeoutMs} ms)`);
}
bootstrap().catch((error) => {
    console.error(error);
    process.exit(1);
});
//# sourceMappingURL=main.js.map