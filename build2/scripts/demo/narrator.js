/**
 * The demo's terminal output: section headers, time-stamped lines, notes. Colour only when stdout
 * is a terminal (and NO_COLOR is unset); otherwise plain text that reads the same.
 */
const CODES = { bold: 1, dim: 2, red: 31, green: 32, yellow: 33, blue: 34, magenta: 35, cyan: 36 };
export class Narrator {
    constructor(color = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR, write = (text) => process.stdout.write(text)) {
        this.color = color;
        this.write = write;
        /** Times are printed in seconds since this instant (when the replicas were started). */
        this.origin = 0;
        this.width = Math.max(72, Math.min(process.stdout.columns ?? 100, 110));
    }
    paint(text, ...styles) {
        if (!this.color || styles.length === 0)
            return text;
        return `\x1b[${styles.map((style) => CODES[style]).join(';')}m${text}\x1b[0m`;
    }
    /** A replica's name, in a fixed-width column. */
    who(name) {
        return this.paint(name.padEnd(9), 'bold');
    }
    line(text = '') {
        this.write(`${text}\n`);
    }
    section(title) {
        const rule = '─'.repeat(Math.max(3, this.width - title.length - 4));
        this.line();
        this.line(this.paint(`── ${title} ${rule}`, 'bold'));
    }
    /** `  12.3s  replica-a  text` (or without a replica). */
    at(t, who, text) {
        const seconds = `${((t - this.origin) / 1000).toFixed(1)}s`.padStart(7);
        this.line(`${this.paint(seconds, 'dim')}  ${who ? `${this.who(who)}  ` : ''}${text}`);
    }
    /** An explanation under the events, indented past the time column. */
    note(text) {
        for (const line of wrap(text, this.width - 9))
            this.line(`         ${this.paint(line, 'dim')}`);
    }
}
export function seconds(ms) {
    return `${(ms / 1000).toFixed(1)} s`;
}
function wrap(text, width) {
    const lines = [];
    let current = '';
    for (const word of text.split(' ')) {
        if (current && current.length + 1 + word.length > width) {
            lines.push(current);
            current = word;
        }
        else
            current = current ? `${current} ${word}` : word;
    }
    if (current)
        lines.push(current);
    return lines;
}
//# sourceMappingURL=narrator.js.map