/**
 * Scenarios of watches: what fires them, that each fires once, that a notification overtakes no
 * reply, and what happens to them across a dropped connection (the C client sends them again
 * with SetWatches, and the server fires those whose node changed meanwhile).
 */
import { scenario } from '../transcript.js';
export const watchScenarios = [
    scenario('a getData watch fires once, on a change or on a delete', async (env, t) => {
        const a = await env.open();
        const b = await env.open();
        const node = `${env.root}/n`;
        await b.zk.create(node, Buffer.from('0'));
        const first = t.watch();
        await a.zk.getData(node, first.watcher);
        await b.zk.setData(node, Buffer.from('1'), -1);
        const fired = await first.until(1);
        await b.zk.setData(node, Buffer.from('2'), -1);
        // A second notification would arrive before the reply to this read (see the ordering scenario).
        await a.zk.getData(node);
        const oneShot = [...first.events];
        const second = t.watch();
        await a.zk.getData(node, second.watcher);
        await b.zk.delete(node);
        return { fired, oneShot, onDelete: await second.until(1) };
    }, { fired: ['changed n'], oneShot: ['changed n'], onDelete: ['deleted n'] }),
    scenario('an exists watch fires on creation, change and delete; a failed getData sets none', async (env, t) => {
        const a = await env.open();
        const b = await env.open();
        const at = (path) => `${env.root}/${path}`;
        const onMissing = t.watch();
        const failedGet = t.watch();
        const missing = await t.outcome(a.zk.exists(at('m'), onMissing.watcher), (stat) => t.stat(stat));
        const getMissing = await t.outcome(a.zk.getData(at('g'), failedGet.watcher));
        await b.zk.create(at('m'));
        await b.zk.create(at('g'));
        const created = await onMissing.until(1);
        const onChange = t.watch();
        await a.zk.exists(at('m'), onChange.watcher);
        await b.zk.setData(at('m'), Buffer.from('x'), -1);
        const changed = await onChange.until(1);
        const onDelete = t.watch();
        await a.zk.exists(at('m'), onDelete.watcher);
        await b.zk.delete(at('m'));
        const deleted = await onDelete.until(1);
        await b.zk.setData(at('g'), Buffer.from('x'), -1);
        await a.zk.sync(at('g'));
        return { missing, getMissing, created, changed, deleted, failedGet: failedGet.events };
    }, { missing: null, getMissing: 'NONODE', created: ['created m'], changed: ['changed m'], deleted: ['deleted m'], failedGet: [] }),
    scenario('a notification reaches the watching session before the reply to its next read', async (env, t) => {
        const a = await env.open();
        const b = await env.open();
        const at = (path) => `${env.root}/${path}`;
        await b.zk.create(at('n'), Buffer.from('0'));
        const data = t.watch();
        const creation = t.watch();
        await a.zk.getData(at('n'), data.watcher);
        await a.zk.exists(at('m'), creation.watcher);
        await b.zk.setData(at('n'), Buffer.from('1'), -1);
        await b.zk.create(at('m'));
        // b's replies say the changes are done; a's reads are sent after them.
        const read = (await a.zk.getData(at('n'))).data.toString();
        const seenAtRead = [...data.events];
        const exists = (await a.zk.exists(at('m'))) !== null;
        return { read, seenAtRead, exists, seenAtExists: [...creation.events] };
    }, { read: '1', seenAtRead: ['changed n'], exists: true, seenAtExists: ['created m'] }),
    scenario('every watcher of a node is told, each once', async (env, t) => {
        const a = await env.open();
        const b = await env.open();
        const node = `${env.root}/n`;
        await a.zk.create(node);
        const watches = { aData1: t.watch(), aData2: t.watch(), aExists: t.watch(), bData: t.watch() };
        await a.zk.getData(node, watches.aData1.watcher);
        await a.zk.getData(node, watches.aData2.watcher);
        await a.zk.exists(node, watches.aExists.watcher);
        await b.zk.getData(node, watches.bData.watcher);
        await b.zk.setData(node, Buffer.from('x'), -1);
        for (const watch of Object.values(watches))
            await watch.until(1);
        await a.zk.sync(node);
        await b.zk.sync(node);
        return Object.fromEntries(Object.entries(watches).map(([name, watch]) => [name, watch.events]));
    }, { aData1: ['changed n'], aData2: ['changed n'], aExists: ['changed n'], bData: ['changed n'] }),
    scenario('a watch set before a dropped connection fires for a change after the reconnection', async (env, t) => {
        const a = await env.open();
        const b = await env.open();
        const at = (path) => `${env.root}/${path}`;
        await b.zk.create(at('n'));
        const data = t.watch();
        const creation = t.watch();
        await a.zk.getData(at('n'), data.watcher);
        await a.zk.exists(at('m'), creation.watcher);
        await env.cutConnection(a);
        const afterReconnection = { data: [...data.events], creation: [...creation.events] };
        await b.zk.setData(at('n'), Buffer.from('x'), -1);
        await b.zk.create(at('m'));
        return { events: a.events, afterReconnection, data: await data.until(1), creation: await creation.until(1) };
    }, { events: ['connected', 'connecting', 'connected'], afterReconnection: { data: [], creation: [] }, data: ['changed n'], creation: ['created m'] }),
    // SetWatches carries the last zxid the client saw, and the server fires each watch whose node
    // is newer or gone: a node deleted and created again reads as changed, and one created and
    // deleted again as nothing (the Programmer's Guide names this one missed watch).
    scenario('changes made while a session was disconnected fire its watches on reconnection', async (env, t) => {
        const a = await env.open();
        const b = await env.open();
        const at = (path) => `${env.root}/${path}`;
        for (const name of ['changed', 'deleted', 'recreated', 'untouched'])
            await b.zk.create(at(name));
        const watches = {
            changed: t.watch(), deleted: t.watch(), recreated: t.watch(), untouched: t.watch(),
            created: t.watch(), createdAndDeleted: t.watch(),
        };
        for (const name of ['changed', 'deleted', 'recreated', 'untouched'])
            await a.zk.getData(at(name), watches[name].watcher);
        for (const name of ['created', 'createdAndDeleted'])
            await a.zk.exists(at(name), watches[name].watcher);
        const seen = () => Object.fromEntries(Object.entries(watches).map(([name, watch]) => [name, [...watch.events]]));
        let whileCut = null;
        await env.cutConnection(a, async () => {
            await b.zk.setData(at('changed'), Buffer.from('x'), -1);
            await b.zk.delete(at('deleted'));
            await b.zk.delete(at('recreated'));
            await b.zk.create(at('recreated'));
            await b.zk.create(at('created'));
            await b.zk.delete(await b.zk.create(at('createdAndDeleted')));
            whileCut = seen();
        });
        // SetWatches is the first request after the handshake: its notifications precede this reply.
        await a.zk.sync(env.root);
        const atReconnection = seen();
        // The server re-registered what did not fire: the exists watch on a still missing node too.
        await b.zk.create(at('createdAndDeleted'));
        await b.zk.setData(at('untouched'), Buffer.from('x'), -1);
        await watches.createdAndDeleted.until(1);
        await watches.untouched.until(1);
        return { events: a.events, whileCut, atReconnection, later: seen() };
    }, {
        events: ['connected', 'connecting', 'connected'],
        whileCut: { changed: [], deleted: [], recreated: [], untouched: [], created: [], createdAndDeleted: [] },
        atReconnection: {
            changed: ['changed changed'],
            deleted: ['deleted deleted'],
            recreated: ['changed recreated'],
            untouched: [],
            created: ['created created'],
            createdAndDeleted: [],
        },
        later: {
            changed: ['changed changed'],
            deleted: ['deleted deleted'],
            recreated: ['changed recreated'],
            untouched: ['changed untouched'],
            created: ['created created'],
            createdAndDeleted: ['created createdAndDeleted'],
        },
    }),
];
//# sourceMappingURL=watches.js.map