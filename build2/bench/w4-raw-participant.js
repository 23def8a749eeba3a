/**
 * W4's floor: the participant protocol (BENCHMARKS.md) on the bare npm `zookeeper` client, running
 * the election this library runs and nothing else. Ephemeral sequential nodes under
 * `<path>/elections/w4`, the lowest leads; each other node watches its predecessor, and the one
 * right behind the leader leads the moment the leader's node is deleted, with no request (direct
 * succession); any other waiter lists again. No Nest, no RxJS, no recovery, no ownership checks:
 * what separates the library's hand-over from this is the cost of those, in JavaScript.
 * `--relist` runs kazoo's and Curator's election instead: every waiter lists the queue again
 * when its predecessor goes, and leads only if that listing shows it first.
 *
 *   node build/bench/w4-raw-participant.js --connect {connect} --path {path} --id {id} --session-timeout-ms {ms} [--relist]
 */
import readline from 'node:readline';
import { connectRaw, RAW_EPHEMERAL_SEQUENTIAL } from './raw-zookeeper.js';
import { epochMicros } from './stats.js';
import { parseArgs } from './workload-main.js';
const RC_OK = 0;
const EVENT_DELETED = 2;
async function main() {
    const args = parseArgs(process.argv.slice(2));
    const [connect, root, id, timeout] = ['connect', 'path', 'id', 'session-timeout-ms'].map((key) => {
        const value = args.get(key);
        if (typeof value !== 'string')
            throw new Error(`--${key} is required`);
        return value;
    });
    const ev = (name, detail) => process.stdout.write(`EV ${name} ${id} ${epochMicros()}${detail ? ` ${detail}` : ''}\n`);
    const dir = `${root}/elections/w4`;
    const relist = args.get('relist') === true;
    const zk = await connectRaw(connect, Number(timeout));
    const cb = zk;
    for (const path of [root, `${root}/elections`, dir]) {
        await new Promise((resolve) => cb.a_create(path, '', 0, () => resolve())); // NODEEXISTS is fine
    }
    const mine = await zk.create(`${dir}/n-`, id, RAW_EPHEMERAL_SEQUENTIAL());
    const myName = mine.slice(dir.length + 1);
    let leading = false;
    const lead = () => {
        if (leading)
            return;
        leading = true;
        ev('LEADER');
    };
    const look = async () => {
        const queue = (await zk.get_children(dir, false)).sort();
        const index = queue.indexOf(myName);
        if (index === 0)
            return lead();
        const predecessorLeads = index === 1 && !relist;
        cb.aw_get(`${dir}/${queue[index - 1]}`, (type) => {
            if (type === EVENT_DELETED && predecessorLeads)
                lead();
            else
                void look();
        }, (rc) => {
            if (rc !== RC_OK)
                void look(); // gone before the watch was set
        });
    };
    ev('STARTED');
    await look();
    let closing = false;
    const close = (resign) => {
        if (closing)
            return;
        closing = true;
        const exit = () => {
            zk.close();
            ev('CLOSED');
            process.exit(0);
        };
        if (!resign)
            return exit();
        ev('RESIGN');
        cb.a_delete_(mine, -1, exit);
    };
    readline
        .createInterface({ input: process.stdin })
        .on('line', (line) => {
        if (line.trim() === 'resign')
            close(true);
        else if (line.trim() === 'quit')
            close(false);
    })
        .on('close', () => close(false));
    const deadline = Date.now() + 30_000;
    while (!closing) {
        const members = (await zk.get_children(dir, false)).length;
        if (members >= 3) {
            ev('READY', String(members));
            break;
        }
        if (Date.now() > deadline)
            throw new Error('fewer than 3 participants after 30 s');
        await new Promise((resolve) => setTimeout(resolve, 20));
    }
}
main().catch((error) => {
    process.stderr.write(`w4-raw-participant: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
});
//# sourceMappingURL=w4-raw-participant.js.map