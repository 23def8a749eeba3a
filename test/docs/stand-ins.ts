/**
 * Typed stand-ins for what the documentation's snippets use but this repository does not depend
 * on, so that test/docs/snippets.test.ts can type-check them without new dependencies. Each is
 * the part of the real API that the snippets call, with the real signatures (narrowed); a
 * snippet that calls anything else fails to compile, and then the stand-in grows or the snippet
 * changes. A package stands in only when it cannot be resolved from this repository's
 * node_modules: where the real one is installed, the snippets compile against it.
 */

/**
 * The test-runner globals of the projects `nest new` makes (Jest for Nest 11, Vitest with
 * `globals: true` for Nest 12): `describe`, `it`, the hooks and `expect` with the matchers the
 * snippets use. Always declared: neither runner is a dependency here.
 */
const TEST_RUNNER_GLOBALS = `
interface SnippetMatchers<R> {
  toBe(expected: unknown): R;
  toEqual(expected: unknown): R;
  toContain(expected: unknown): R;
  toBeUndefined(): R;
  toBeDefined(): R;
  toBeInstanceOf(expected: abstract new (...args: never[]) => unknown): R;
  toThrow(expected?: unknown): R;
  toMatchObject(expected: object): R;
}
interface SnippetExpectation extends SnippetMatchers<void> {
  not: SnippetMatchers<void>;
  resolves: SnippetMatchers<Promise<void>>;
  rejects: SnippetMatchers<Promise<void>>;
}
declare function describe(name: string, body: () => void): void;
declare function it(name: string, body: () => unknown, timeoutMs?: number): void;
declare function beforeEach(hook: () => unknown): void;
declare function afterEach(hook: () => unknown): void;
declare function beforeAll(hook: () => unknown): void;
declare function afterAll(hook: () => unknown): void;
declare function expect(actual: unknown): SnippetExpectation;
`;

/** Optional packages a snippet imports, and their stand-ins. */
const PACKAGES: Record<string, string> = {
  // docs/testing-and-observability.md, "Prometheus (prom-client)".
  'prom-client': `
declare module 'prom-client' {
  type Labels = Record<string, string | number>;
  interface MetricConfiguration { name: string; help: string; labelNames?: readonly string[]; buckets?: number[] }
  export class Counter { constructor(configuration: MetricConfiguration); inc(labels?: Labels, value?: number): void }
  export class Gauge {
    constructor(configuration: MetricConfiguration);
    inc(labels?: Labels, value?: number): void;
    dec(labels?: Labels, value?: number): void;
    set(labels: Labels, value: number): void;
    reset(): void;
  }
  export class Histogram { constructor(configuration: MetricConfiguration); observe(labels: Labels, value: number): void }
}
`,
  // docs/testing-and-observability.md, "OpenTelemetry and APMs".
  '@opentelemetry/api': `
declare module '@opentelemetry/api' {
  type Attributes = Record<string, string | number | boolean>;
  interface Histogram { record(value: number, attributes?: Attributes): void }
  interface Meter { createHistogram(name: string, options?: { unit?: string; description?: string }): Histogram }
  export const metrics: { getMeter(name: string, version?: string): Meter };
}
`,
};

/**
 * The declaration file to add to the scratch project: the test-runner globals, and a stand-in
 * for each package of `PACKAGES` that `isInstalled` says is missing. Returns it with the names of
 * the packages it stands in for.
 */
export function standIns(isInstalled: (pkg: string) => boolean): { text: string; packages: string[] } {
  const packages = Object.keys(PACKAGES).filter((pkg) => !isInstalled(pkg));
  return { text: [TEST_RUNNER_GLOBALS, ...packages.map((pkg) => PACKAGES[pkg])].join('\n'), packages };
}
