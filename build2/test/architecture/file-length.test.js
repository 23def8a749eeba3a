/**
 * A file of `src/` stays about 250 lines long, one concept a file; a longer one says why, in a
 * comment that starts with `Why this file is long:`, so that the next reader can judge whether the
 * reason still holds (and a split that would make it go away is weighed against it).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { sourceGraph } from '../support/import-graph.js';
const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../src');
/** "About 250": what a file may have before it must state its reason. */
const MAX_LINES_WITHOUT_REASON = 280;
const REASON = /^\/\/ Why this file is long: \S/m;
function lineCount(text) {
    return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}
describe('source file length', () => {
    const files = [...sourceGraph(SRC).keys()].map((file) => ({ file, text: fs.readFileSync(path.join(SRC, file), 'utf8') }));
    it('finds the sources, and counts lines as `wc -l` does', () => {
        assert.ok(files.length > 50, `${files.length} modules under ${SRC}`);
        assert.equal(lineCount('a\nb\n'), 2);
        assert.equal(lineCount('a\nb'), 2);
    });
    it(`keeps every file to ${MAX_LINES_WITHOUT_REASON} lines, or says why not`, () => {
        const unexplained = files
            .filter(({ text }) => lineCount(text) > MAX_LINES_WITHOUT_REASON && !REASON.test(text))
            .map(({ file, text }) => `${file}: ${lineCount(text)} lines and no "// Why this file is long: ..." comment`);
        assert.deepEqual(unexplained, []);
    });
    it('keeps no stale reason: a file that says why it is long is long', () => {
        const stale = files.filter(({ text }) => REASON.test(text) && lineCount(text) <= MAX_LINES_WITHOUT_REASON).map(({ file }) => file);
        assert.deepEqual(stale, []);
    });
});
//# sourceMappingURL=file-length.test.js.map