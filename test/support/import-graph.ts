/** The modules a compiled ESM file loads, transitively, found by reading its import statements. */
import fs from 'node:fs';
import path from 'node:path';

export interface ImportGraph {
  /** Absolute paths of every relative module reached, the entry included. */
  readonly files: ReadonlySet<string>;
  /** Package specifiers imported anywhere in the graph (`@nestjs/common`, `node:fs`, ...). */
  readonly packages: ReadonlySet<string>;
}

/** Static `import`/`export ... from`, side-effect imports and literal `import()`: what tsc emits. */
const SPECIFIER = /\b(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g;

export function importGraph(entry: string): ImportGraph {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const [, specifier = ''] of fs.readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
      if (specifier.startsWith('.')) visit(path.resolve(path.dirname(file), specifier));
      else packages.add(specifier);
    }
  };
  visit(entry);
  return { files, packages };
}
