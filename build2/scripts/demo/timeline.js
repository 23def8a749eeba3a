const GLYPH = {
    follower: ['·', 'dim'],
    leader: ['━', 'green'],
    transfer: ['▒', 'blue'],
    batch: ['█', 'yellow'],
    kill: ['✖', 'red'],
    repair: ['↻', 'cyan'],
    stop: ['■', 'magenta'],
};
const RANK = ['none', 'follower', 'leader', 'transfer', 'batch', 'stop', 'repair', 'kill'];
const LABEL = 11;
export function drawTimeline(narrator, input) {
    const cells = Math.max(30, narrator.width - LABEL - 4);
    const span = Math.max(1, input.end - input.origin);
    const cellOf = (t) => Math.min(cells - 1, Math.max(0, Math.floor(((t - input.origin) / span) * cells)));
    const [axis, ruler] = axisLines(span, cells);
    narrator.line(`${' '.repeat(LABEL)}${narrator.paint(axis, 'dim')}`);
    narrator.line(`${' '.repeat(LABEL)}${narrator.paint(ruler, 'dim')}`);
    for (const replica of input.replicas) {
        const row = new Array(cells).fill('none');
        const paint = (from, to, cell) => {
            for (let i = cellOf(from); i <= cellOf(Math.max(from, to - 1e-6)); i++)
                if (RANK.indexOf(cell) > RANK.indexOf(row[i]))
                    row[i] = cell;
        };
        if (replica.readyAt !== undefined)
            paint(replica.readyAt, replica.goneAt ?? input.end, 'follower');
        for (const h of input.leaders.filter((h) => h.replica === replica.name))
            paint(h.start, h.end, 'leader');
        for (const h of input.accounts.filter((h) => h.replica === replica.name))
            paint(h.start, h.end, 'transfer');
        for (const h of input.batches.filter((h) => h.replica === replica.name))
            paint(h.start, h.end, 'batch');
        for (const r of input.repairs.filter((r) => r.replica === replica.name))
            paint(r.t, r.t, 'repair');
        if (replica.terminatedAt !== undefined)
            paint(replica.terminatedAt, replica.terminatedAt, 'stop');
        if (replica.killedAt !== undefined)
            paint(replica.killedAt, replica.killedAt, 'kill');
        const drawn = row.map((cell) => (cell === 'none' ? ' ' : narrator.paint(GLYPH[cell][0], GLYPH[cell][1]))).join('');
        narrator.line(`${narrator.who(replica.name)}  ${drawn}`.trimEnd());
    }
    const key = (cell, text) => `${narrator.paint(GLYPH[cell][0], GLYPH[cell][1])} ${text}`;
    narrator.line();
    narrator.line(`${' '.repeat(LABEL)}${[key('leader', 'leader'), key('follower', 'follower'), key('batch', 'runs the batch (lock "settlement")'), key('transfer', 'transfer (lock "account:…")')].join('   ')}`);
    narrator.line(`${' '.repeat(LABEL)}${[key('kill', 'SIGKILL'), key('repair', 'repaired the interrupted batch'), key('stop', 'SIGTERM (graceful stop)')].join('   ')}`);
}
/** Labels every few seconds ("0s    5s    10s") and a ruler under them ("├────┼────┼"). */
function axisLines(span, cells) {
    const perCell = span / 1000 / cells;
    const step = [1, 2, 5, 10, 15, 20, 30, 60].find((s) => s / perCell >= 7) ?? 120;
    let labels = '';
    let ruler = '';
    for (let i = 0; i < cells; i++) {
        const second = i * perCell;
        const tick = i === 0 || Math.floor(second / step) !== Math.floor(((i - 1) * perCell) / step);
        ruler += tick ? (i === 0 ? '├' : '┼') : '─';
        if (tick && labels.length <= i)
            labels = labels.padEnd(i) + `${Math.floor(second / step) * step}s`;
    }
    return [labels.slice(0, cells), ruler];
}
//# sourceMappingURL=timeline.js.map