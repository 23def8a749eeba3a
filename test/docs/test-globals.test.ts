/**
 * test/docs/test-globals.ts, the `expect` that the documentation's test snippets run with, fails
 * where Jest's fails: a matcher that always passed would make test/docs/spec-snippets.test.ts
 * prove nothing.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import './test-globals.js';

type Matcher<R> = (expected?: unknown) => R;
interface Expectation {
  [matcher: string]: Matcher<void> | Record<string, Matcher<void | Promise<void>>>;
  not: Record<string, Matcher<void>>;
  resolves: Record<string, Matcher<Promise<void>>>;
  rejects: Record<string, Matcher<Promise<void>>>;
}
const expect = (globalThis as unknown as { expect: (actual: unknown) => Expectation }).expect;
const call = (actual: unknown, matcher: string, expected?: unknown) => (expect(actual)[matcher] as Matcher<void>)(expected);

describe('the snippets\' expect', () => {
  it('passes and fails each matcher as Jest does', () => {
    const cases: Array<[actual: unknown, matcher: string, expected: unknown, passes: boolean]> = [
      [1, 'toBe', 1, true],
      [1, 'toBe', 2, false],
      [{ a: [1] }, 'toEqual', { a: [1] }, true],
      [{ a: [1] }, 'toEqual', { a: [2] }, false],
      ['report for acme', 'toContain', 'acme', true],
      [['eu-3'], 'toContain', 'eu-1', false],
      [undefined, 'toBeUndefined', undefined, true],
      [0, 'toBeUndefined', undefined, false],
      [new RangeError('x'), 'toBeInstanceOf', RangeError, true],
      [new Error('x'), 'toBeInstanceOf', RangeError, false],
      [{ code: 'ZK_LOCK_BUSY', path: '/a' }, 'toMatchObject', { code: 'ZK_LOCK_BUSY' }, true],
      [{ code: 'ZK_LOCK_TIMEOUT' }, 'toMatchObject', { code: 'ZK_LOCK_BUSY' }, false],
      [() => { throw new Error('boom'); }, 'toThrow', 'boom', true],
      [() => undefined, 'toThrow', undefined, false],
    ];
    for (const [actual, matcher, expected, passes] of cases) {
      const outcome = () => call(actual, matcher, expected);
      if (passes) assert.doesNotThrow(outcome, `${matcher} should pass`);
      else assert.throws(outcome, `${matcher} should fail`);
      const negated = () => expect(actual).not[matcher]!(expected);
      if (passes) assert.throws(negated, `not.${matcher} should fail`);
      else assert.doesNotThrow(negated, `not.${matcher} should pass`);
    }
  });

  it('settles promises for resolves and rejects', async () => {
    await expect(Promise.resolve('report for acme')).resolves.toContain!('acme');
    await assert.rejects(expect(Promise.resolve('x')).resolves.toContain!('acme'));
    await assert.rejects(expect(Promise.reject(new Error('no'))).resolves.toContain!('no'));
    await expect(Promise.reject(Object.assign(new Error('busy'), { code: 'ZK_LOCK_BUSY' }))).rejects.toMatchObject!({ code: 'ZK_LOCK_BUSY' });
    await assert.rejects(expect(Promise.resolve({ code: 'ZK_LOCK_BUSY' })).rejects.toMatchObject!({ code: 'ZK_LOCK_BUSY' }));
  });
});
