/**
 * The test-runner globals of a `nest new` project (Jest's, and Vitest's with `globals: true`) on
 * Node's test runner, for test/docs/spec-snippets.test.ts: `describe`, `it`, the hooks, and
 * `expect` with the matchers that test/docs/stand-ins.ts declares (the same list: a snippet that
 * uses another matcher fails to compile before it could fail here), with `.not`, `.resolves` and
 * `.rejects`. Each matcher behaves as Jest's does for the values the snippets give it.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { inspect, isDeepStrictEqual } from 'node:util';

type Check = (actual: unknown, expected?: unknown) => boolean;

/** Jest's toMatchObject: every property of `expected` (recursively) is in `actual`. */
function matchesObject(actual: unknown, expected: unknown): boolean {
  if (expected === null || typeof expected !== 'object') return Object.is(actual, expected);
  if (actual === null || typeof actual !== 'object') return false;
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && actual.length === expected.length && expected.every((item, i) => matchesObject(actual[i], item));
  }
  return Object.entries(expected).every(([key, value]) => matchesObject((actual as Record<string, unknown>)[key], value));
}

/** Jest's toThrow: `actual` is a function that throws (or, after `.rejects`, the error itself). */
function thrown(actual: unknown, expected: unknown): boolean {
  let error: unknown = actual;
  if (typeof actual === 'function') {
    try {
      (actual as () => unknown)();
      return false;
    } catch (caught) {
      error = caught;
    }
  }
  if (expected === undefined) return true;
  const message = error instanceof Error ? error.message : String(error);
  if (typeof expected === 'string') return message.includes(expected);
  if (expected instanceof RegExp) return expected.test(message);
  if (typeof expected === 'function') return error instanceof (expected as abstract new () => unknown);
  return false;
}

const CHECKS: Record<string, Check> = {
  toBe: (actual, expected) => Object.is(actual, expected),
  toEqual: (actual, expected) => isDeepStrictEqual(actual, expected),
  toContain: (actual, expected) => (typeof actual === 'string' ? actual.includes(String(expected)) : Array.isArray(actual) && actual.includes(expected)),
  toBeUndefined: (actual) => actual === undefined,
  toBeDefined: (actual) => actual !== undefined,
  toBeInstanceOf: (actual, expected) => actual instanceof (expected as abstract new () => unknown),
  toThrow: thrown,
  toMatchObject: matchesObject,
};

type Matchers<R> = Record<string, (expected?: unknown) => R>;

function matchers(actual: unknown, negate: boolean, how: string): Matchers<void> {
  return Object.fromEntries(
    Object.entries(CHECKS).map(([name, check]) => [
      name,
      (expected?: unknown) => {
        if (check(actual, expected) === negate) {
          assert.fail(`expect(${inspect(actual)})${how}${negate ? '.not' : ''}.${name}(${expected === undefined ? '' : inspect(expected)}) failed`);
        }
      },
    ]),
  );
}

/** `.resolves` / `.rejects`: settle the promise, then match its value or its error. */
function settled(promise: unknown, rejects: boolean): Matchers<Promise<void>> {
  const how = rejects ? '.rejects' : '.resolves';
  return Object.fromEntries(
    Object.keys(CHECKS).map((name) => [
      name,
      async (expected?: unknown) => {
        let outcome: { value: unknown } | { error: unknown };
        try {
          outcome = { value: await promise };
        } catch (error) {
          outcome = { error };
        }
        if (rejects && 'value' in outcome) assert.fail(`expected a rejection, got ${inspect(outcome.value)}`);
        if (!rejects && 'error' in outcome) throw outcome.error;
        matchers('value' in outcome ? outcome.value : outcome.error, false, how)[name]!(expected);
      },
    ]),
  );
}

function expect(actual: unknown) {
  return { ...matchers(actual, false, ''), not: matchers(actual, true, ''), resolves: settled(actual, false), rejects: settled(actual, true) };
}

Object.assign(globalThis, { describe, it, beforeEach, afterEach, beforeAll: before, afterAll: after, expect });
