/**
 * The README's reference parts that name the package's own lists must name all of them: the
 * Configuration table every option `ZkLockModule.forRoot` takes, the Package format paragraph every
 * entry point `typesVersions` serves, and Getting started installs the package before it runs its
 * command (issue 31: found following Getting started as a new user).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { ZkLockModuleExtras } from '../../src/zk-lock.module-definition.js';
import { ZK_LOCK_OPTION_KEYS } from '../../src/zk-lock.options-validator.js';
import { ROOT } from './snippet-project.js';

// `satisfies` makes the compiler hold this list to ZkLockModuleExtras both ways.
const EXTRA_KEYS = Object.keys({ isGlobal: 1, exceptionFilter: 1 } satisfies Record<keyof ZkLockModuleExtras, 1>);

const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

/** The text of the section under `heading` (a whole heading line), up to the next heading of its level or above. */
function section(heading: string): string {
  const start = readme.indexOf(`\n${heading}\n`);
  assert.ok(start >= 0, `README.md has no heading '${heading}'`);
  const level = /^#+/.exec(heading)![0].length;
  const rest = readme.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`^#{1,${level}} `, 'm'));
  return end < 0 ? rest : rest.slice(0, end);
}

describe('the README names what the package has', () => {
  it('lists every option of ZkLockModule.forRoot in the Configuration table', () => {
    const rows = new Set([...section('## Configuration').matchAll(/^\| `(\w+)` \|/gm)].map((match) => match[1]));
    const missing = [...ZK_LOCK_OPTION_KEYS, ...EXTRA_KEYS].filter((key) => !rows.has(key));
    assert.deepEqual(missing, [], `options missing from the Configuration table: ${missing.join(', ')}`);
  });

  it('names every entry point typesVersions serves where Package format explains it', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { typesVersions: { '*': Record<string, string[]> } };
    const paragraph = section('## Install').split('\n\n').find((text) => text.includes('**Package format.**'));
    assert.ok(paragraph, 'Install has no Package format paragraph');
    const sentence = paragraph.replace(/\s+/g, ' ').split(/(?<=\.) /).find((text) => text.includes('`typesVersions`'));
    assert.ok(sentence, 'Package format does not mention typesVersions');
    const missing = Object.keys(pkg.typesVersions['*']).filter((subpath) => !sentence.includes(`/${subpath}\``));
    assert.deepEqual(missing, [], `typesVersions serves them, the README does not say so: ${sentence}`);
  });

  it('installs the package in Getting started before running npx nestjs-zk-lock', () => {
    const gettingStarted = section('## Getting started');
    const install = gettingStarted.search(/npm install nestjs-zk-lock/);
    const npx = gettingStarted.search(/npx nestjs-zk-lock/);
    assert.ok(install >= 0 && npx >= 0, 'Getting started has no install or no npx command');
    // Before the install, npx would fetch the package from the registry (a prompt, a download,
    // and maybe another version than the one installed a step later).
    assert.ok(install < npx, 'Getting started runs npx nestjs-zk-lock before it installs nestjs-zk-lock');
  });
});
