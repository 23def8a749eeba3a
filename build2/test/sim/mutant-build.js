/**
 * Builds a mutant: a copy of the compiled project with one mutant's patches applied (see `MUTANTS`).
 * The copy lives inside the project (`build-mutants/<name>/build`), so its imports still resolve to
 * the project's node_modules and its .js files are ES modules by the project's package.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import { MUTANTS } from './mutants.js';
/**
 * Copies `<projectRoot>/build` afresh to `<projectRoot>/build-mutants/<name>/build`, applies the
 * mutant's patches to the copy and returns the copy's build root. Throws when the name is unknown,
 * or when a patch's file is missing or its `find` does not occur exactly once in it.
 */
export function prepareMutant(name, projectRoot) {
    const mutant = MUTANTS.find((candidate) => candidate.name === name);
    if (!mutant)
        throw new Error(`Unknown mutant '${name}'. Known mutants:\n${listMutants()}`);
    const build = path.join(projectRoot, 'build');
    if (!fs.existsSync(build))
        throw new Error(`No build at ${build}: run \`npm run build:test\` first`);
    const copy = path.join(projectRoot, 'build-mutants', name, 'build');
    fs.rmSync(copy, { recursive: true, force: true });
    fs.cpSync(build, copy, { recursive: true });
    for (const patch of mutant.patches)
        applyPatch(mutant, patch, path.join(copy, 'src'));
    return copy;
}
/** One line a mutant: its name and the defect it re-introduces (for `--help`). */
export function listMutants() {
    const width = Math.max(...MUTANTS.map((mutant) => mutant.name.length));
    return MUTANTS.map((mutant) => `  ${mutant.name.padEnd(width)}  ${mutant.defect}`).join('\n');
}
function applyPatch(mutant, patch, srcRoot) {
    const file = path.join(srcRoot, patch.file);
    if (!fs.existsSync(file))
        throw new Error(`Mutant '${mutant.name}': no ${patch.file} under ${srcRoot}; update the mutant (test/sim/mutants.ts)`);
    const source = fs.readFileSync(file, 'utf8');
    const occurrences = source.split(patch.find).length - 1;
    if (occurrences !== 1) {
        throw new Error(`Mutant '${mutant.name}': ${patch.file} contains ${JSON.stringify(patch.find)} ${occurrences} times, not once; ` +
            'the code it patches has moved or changed: update the mutant (test/sim/mutants.ts)');
    }
    const at = source.indexOf(patch.find);
    fs.writeFileSync(file, source.slice(0, at) + patch.replace + source.slice(at + patch.find.length));
}
//# sourceMappingURL=mutant-build.js.map