/**
 * The mutants of the simulation's mutation check against the current build: each one's patches
 * apply exactly once and leave files that still parse, so `npm run test:sim -- --mutant NAME` runs
 * the defect rather than a syntax error or nothing. A patch whose code has moved fails to apply,
 * naming the mutant, the file and the text. No ZooKeeper involved.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { listMutants, prepareMutant } from './mutant-build.js';
import { MUTANTS } from './mutants.js';
const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
describe('simulation mutants', () => {
    it('have distinct kebab-case names, a defect and at least one patch', () => {
        const names = MUTANTS.map((mutant) => mutant.name);
        assert.equal(new Set(names).size, names.length, `duplicate names in ${names.join(', ')}`);
        for (const mutant of MUTANTS) {
            assert.match(mutant.name, /^[a-z0-9]+(-[a-z0-9]+)*$/);
            assert.ok(mutant.defect.length > 0, `${mutant.name} has no defect`);
            assert.ok(mutant.patches.length > 0, `${mutant.name} has no patch`);
        }
    });
    for (const mutant of MUTANTS) {
        it(`${mutant.name}: applies to the current build and still parses`, () => {
            const copy = prepareMutant(mutant.name, projectRoot);
            try {
                for (const file of new Set(mutant.patches.map((patch) => patch.file))) {
                    const original = fs.readFileSync(path.join(projectRoot, 'build', 'src', file), 'utf8');
                    const patched = path.join(copy, 'src', file);
                    assert.notEqual(fs.readFileSync(patched, 'utf8'), original, `${file} unchanged`);
                    const check = spawnSync(process.execPath, ['--check', patched], { encoding: 'utf8' });
                    assert.equal(check.status, 0, `${file} does not parse:\n${check.stderr}`);
                }
            }
            finally {
                fs.rmSync(path.dirname(copy), { recursive: true, force: true });
            }
        });
    }
    describe('a patch that no longer fits fails loudly', () => {
        const mutant = MUTANTS[0];
        const patch = mutant.patches[0];
        /** A project whose build holds `content` (or nothing) where the first mutant's patch goes. */
        function projectWith(content) {
            const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sim-mutant-'));
            const file = path.join(root, 'build', 'src', patch.file);
            fs.mkdirSync(path.dirname(file), { recursive: true });
            if (content !== undefined)
                fs.writeFileSync(file, content);
            return root;
        }
        for (const [times, content] of [
            [0, 'export {};\n'],
            [2, `${patch.find}\n${patch.find}\n`],
        ]) {
            it(`the text to replace found ${times} times`, () => {
                const root = projectWith(content);
                try {
                    assert.throws(() => prepareMutant(mutant.name, root), (error) => error.message.includes(`'${mutant.name}'`) && error.message.includes(patch.file) && error.message.includes(JSON.stringify(patch.find)) && error.message.includes(`${times} times`));
                }
                finally {
                    fs.rmSync(root, { recursive: true, force: true });
                }
            });
        }
        it('the file to patch missing', () => {
            const root = projectWith(undefined);
            try {
                assert.throws(() => prepareMutant(mutant.name, root), (error) => error.message.includes(`'${mutant.name}'`) && error.message.includes(patch.file));
            }
            finally {
                fs.rmSync(root, { recursive: true, force: true });
            }
        });
        it('an unknown name, answered with the list', () => {
            assert.throws(() => prepareMutant('no-such-mutant', projectRoot), (error) => error.message.includes('no-such-mutant') && error.message.includes(listMutants()));
        });
    });
});
//# sourceMappingURL=mutants.test.js.map