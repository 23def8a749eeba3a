/**
 * The TypeScript snippets of the documentation (README.md and docs/*.md), as files of a scratch
 * project that test/docs/snippets.test.ts type-checks against the package.
 *
 * Every ```ts / ```typescript block is one file. An HTML comment on the line right before the
 * block's fence (blank lines between are allowed) can say more; the rules, all of them:
 *
 * - `<!-- snippet: file src/app.module.ts -->` names the file. All snippets share one project
 *   directory, so a named snippet can import another (`./reports/reports.service`), as the files of
 *   Getting started do, also one of another document; a name is used once. An unnamed snippet
 *   gets a name of its own (`README_md-<line>.ts`). A named file that is a test (`*.spec.ts`,
 *   `*.e2e-spec.ts`, as `nest new` names them) is also run: test/docs/spec-snippets.test.ts.
 * - `<!-- snippet: members ZkLockTesting from nestjs-zk-lock/testing -->`: the block is a list of
 *   member signatures (a reference listing, not code to paste), after the import lines of the
 *   types they name. It is checked as the body of an interface that the named class must
 *   implement: every documented member exists with a type the real one can be assigned to.
 *
 * Nothing else is wrapped or skipped: every other block must compile as it stands, imports
 * included. Each file gets `export {};` appended, so that a snippet without imports is a module
 * of its own rather than a script sharing the global scope with the others.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface Snippet {
  /** The document, relative to the repository root (`README.md`, `docs/benchmarks.md`). */
  doc: string;
  /** 1-based line of the first line of code (the line after the opening fence). */
  line: number;
  /** The file's path in the scratch project's snippet directory. */
  file: string;
  /** Whether the document named the file (`<!-- snippet: file ... -->`). */
  named: boolean;
  /** What goes into that file. */
  text: string;
  /** Lines the file has before the snippet's first line (a wrapper's), to map errors back. */
  prefix: number;
}

const FENCE = /^```(ts|typescript)\s*$/;
const DIRECTIVE = /^<!--\s*snippet:\s*(.*?)\s*-->\s*$/;
const FILE = /^file\s+(\S+\.tsx?)$/;
const MEMBERS = /^members\s+([A-Za-z_$][\w$]*)\s+from\s+(\S+)$/;

/** The documents whose snippets are checked: README.md and every Markdown file under docs/. */
export function documents(root: string): string[] {
  const docs = fs.readdirSync(path.join(root, 'docs')).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`);
  return ['README.md', ...docs];
}

/** The directive that applies to the fence at `fenceIndex`, if any (the nearest non-blank line above). */
function directiveBefore(lines: readonly string[], fenceIndex: number): string | undefined {
  for (let i = fenceIndex - 1; i >= 0; i -= 1) {
    if (lines[i]!.trim() === '') continue;
    return DIRECTIVE.exec(lines[i]!.trim())?.[1];
  }
  return undefined;
}

function wrap(doc: string, line: number, directive: string | undefined, code: string): Snippet {
  const unnamed = `${doc.replace(/[/.]/g, '_')}-${line}.ts`;
  if (directive === undefined) return { doc, line, file: unnamed, named: false, text: `${code}\nexport {};\n`, prefix: 0 };
  const file = FILE.exec(directive);
  if (file) return { doc, line, file: file[1]!, named: true, text: `${code}\nexport {};\n`, prefix: 0 };
  const members = MEMBERS.exec(directive);
  if (members) {
    const [, className, from] = members;
    const lines = code.split('\n');
    const imports = lines.findIndex((text) => !text.startsWith('import '));
    const text = [
      ...lines.slice(0, imports),
      `import { ${className} } from '${from}';`,
      `interface Documented {`,
      ...lines.slice(imports),
      `}`,
      `// The real class must have every documented member, with a type assignable to the documented one.`,
      `export const documented: Documented = {} as ${className};`,
      '',
    ].join('\n');
    return { doc, line, file: unnamed, named: false, text, prefix: 2 }; // the two lines before the members
  }
  throw new Error(`${doc}:${line - 1}: unknown snippet directive "${directive}" (see test/docs/doc-snippets.ts)`);
}

/** Every TypeScript snippet of one document. An unclosed fence is an error. */
export function snippetsOf(root: string, doc: string): Snippet[] {
  const lines = fs.readFileSync(path.join(root, doc), 'utf8').split('\n');
  const snippets: Snippet[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    if (!FENCE.test(lines[i]!)) continue;
    const end = lines.findIndex((text, j) => j > i && text.startsWith('```'));
    if (end < 0) throw new Error(`${doc}:${i + 1}: the code block is never closed`);
    snippets.push(wrap(doc, i + 2, directiveBefore(lines, i), lines.slice(i + 1, end).join('\n')));
    i = end;
  }
  return snippets;
}

/** The snippets of every document; a file name given twice is an error. */
export function allSnippets(root: string): Snippet[] {
  const snippets = documents(root).flatMap((doc) => snippetsOf(root, doc));
  const seen = new Map<string, Snippet>();
  for (const snippet of snippets) {
    const first = seen.get(snippet.file);
    if (first) throw new Error(`${snippet.doc}:${snippet.line - 1} names its snippet ${snippet.file}, as ${first.doc}:${first.line - 1} does`);
    seen.set(snippet.file, snippet);
  }
  return snippets;
}
