/** The modules a compiled ESM file loads, transitively, found by reading its import statements. */
import fs from 'node:fs';
import path from 'node:path';
/** Static `import`/`export ... from`, side-effect imports, literal `import()` and `require()`: what tsc emits. */
const SPECIFIER = /\b(?:from|import|require)\s*\(?\s*['"]([^'"]+)['"]/g;
export function importGraph(entry) {
    const files = new Set();
    const packages = new Set();
    const visit = (file) => {
        if (files.has(file))
            return;
        files.add(file);
        for (const [, specifier = ''] of fs.readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
            if (specifier.startsWith('.'))
                visit(path.resolve(path.dirname(file), specifier));
            else
                packages.add(specifier);
        }
    };
    visit(entry);
    return { files, packages };
}
/**
 * The import graph of the `.ts` files under `root`, type-only imports included (tsc erases
 * those, so `importGraph` on the build cannot see them). Keys and values are paths relative to
 * `root`, with `/` separators (`recipes/queue/fair-queue.ts`).
 */
export function sourceGraph(root) {
    const graph = new Map();
    const visit = (dir) => {
        for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
            const file = path.join(dir, entry.name);
            if (entry.isDirectory())
                visit(file);
            else if (entry.name.endsWith('.ts')) {
                const imports = new Set();
                for (const [, specifier = ''] of fs.readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
                    if (!specifier.startsWith('.'))
                        continue;
                    imports.add(relative(root, path.resolve(path.dirname(file), specifier).replace(/\.(c|m)?js$/, '.$1ts')));
                }
                graph.set(relative(root, file), imports);
            }
        }
    };
    visit(root);
    return graph;
}
/** Each import cycle of `graph` once, as the list of its modules, starting from its least name. */
export function importCycles(graph) {
    const cycles = new Map();
    const done = new Set();
    const walk = (file, stack) => {
        for (const next of graph.get(file) ?? []) {
            const at = stack.indexOf(next);
            if (at >= 0) {
                const cycle = stack.slice(at);
                const start = cycle.indexOf([...cycle].sort()[0]);
                const rotated = [...cycle.slice(start), ...cycle.slice(0, start)];
                cycles.set(rotated.join(' -> '), rotated);
            }
            else if (!done.has(next)) {
                walk(next, [...stack, next]);
            }
        }
        done.add(file);
    };
    for (const file of [...graph.keys()].sort())
        if (!done.has(file))
            walk(file, [file]);
    return [...cycles.values()];
}
function relative(root, file) {
    return path.relative(root, file).split(path.sep).join('/');
}
//# sourceMappingURL=import-graph.js.map