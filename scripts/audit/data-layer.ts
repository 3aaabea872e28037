// Counts what issue 30 measures, so each step of the data-layer work can be checked: synchronous
// database calls outside src/db and *.repository.ts files, files importing bun:sqlite outside src/db,
// imports of another domain's *.table, and circles between domains. A synchronous call is found by
// type, with the TypeScript compiler API (see floating-promises.ts): a call of `get`, `all`, `run`,
// `values`, `exec`, `prepare`, `query`, `iterate` or `transaction` whose method Drizzle or bun:sqlite
// declares (so `Map.get` or `Object.values` never count).
// Run: bun scripts/audit/data-layer.ts [--files]
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { ts } from '@ts-morph/common'
import { projectProgram } from './program'

const root = resolve(import.meta.dir, '../..')
const src = join(root, 'src')
const walk = (d: string): string[] =>
  readdirSync(d).flatMap((n) => {
    const p = join(d, n)
    return statSync(p).isDirectory() ? walk(p) : /\.tsx?$/.test(n) && !n.endsWith('.embedded.ts') ? [p] : []
  })

/** The domain a file belongs to: its folder under src/modules, else its top folder under src. */
const domainOf = (file: string) => {
  const rel = relative(src, file).split('/')
  return rel[0] === 'modules' ? rel[1]! : rel[0]!
}
const showFiles = process.argv.includes('--files')

const SYNC_METHODS = new Set(['get', 'all', 'run', 'values', 'exec', 'prepare', 'query', 'iterate', 'transaction'])
/** Synchronous database calls per file of src, by the declaring module of the method called. */
function syncCallsByFile(): Map<string, number> {
  const { program, checker } = projectProgram(root)
  const counts = new Map<string, number>()
  for (const file of program.getSourceFiles()) {
    if (file.isDeclarationFile || !file.fileName.startsWith(src + '/')) continue
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && SYNC_METHODS.has(node.expression.name.text)) {
        const declared = checker.getResolvedSignature(node)?.getDeclaration()?.getSourceFile().fileName ?? ''
        if (/node_modules\/(drizzle-orm|bun-types|@types\/bun)\//.test(declared) && !/bun-types\/(globals|overrides)/.test(declared)) {
          if (declared.includes('drizzle-orm') || declared.includes('sqlite')) counts.set(file.fileName, (counts.get(file.fileName) ?? 0) + 1)
        }
      }
      ts.forEachChild(node, visit)
    }
    visit(file)
  }
  return counts
}
const typedSync = syncCallsByFile()

let syncCalls = 0
const syncFiles: [string, number][] = []
const sqliteImports: string[] = []
const crossTables: string[] = []
const edges = new Map<string, Set<string>>()
for (const file of walk(src)) {
  const text = readFileSync(file, 'utf8')
  const rel = relative(root, file)
  const inSeam = rel.startsWith('src/db/')
  if (!inSeam && text.includes("from 'bun:sqlite'")) sqliteImports.push(rel)
  if (!inSeam && !file.endsWith('.repository.ts')) {
    const n = typedSync.get(file) ?? 0
    if (n) {
      syncCalls += n
      syncFiles.push([rel, n])
    }
  }
  for (const m of text.matchAll(/from '(\.[^']+)'/g)) {
    const target = resolve(dirname(file), m[1]!)
    if (!target.startsWith(src)) continue
    const [from, to] = [domainOf(file), domainOf(target)]
    if (from === to) continue
    // A table file may import another domain's table to declare a foreign key.
    if (/\.table$/.test(target) && !inSeam && !file.endsWith('.table.ts')) crossTables.push(`${rel} -> ${relative(root, target)}`)
    if (file.includes('/modules/') && target.includes('/modules/')) {
      if (!edges.has(from)) edges.set(from, new Set())
      edges.get(from)!.add(to)
    }
  }
}

/** Domain pairs that import each other, directly or through others (strongly connected groups). */
function circles(): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const out: string[][] = []
  let i = 0
  const visit = (v: string) => {
    index.set(v, i)
    low.set(v, i++)
    stack.push(v)
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = []
      let w: string
      do group.push((w = stack.pop()!))
      while (w !== v)
      if (group.length > 1) out.push(group.sort())
    }
  }
  for (const v of edges.keys()) if (!index.has(v)) visit(v)
  return out
}

const groups = circles()
console.log(`synchronous database calls outside src/db and *.repository.ts: ${syncCalls} in ${syncFiles.length} files`)
console.log(`files importing bun:sqlite outside src/db: ${sqliteImports.length}`)
console.log(`imports of another domain's *.table: ${crossTables.length}`)
console.log(`circles between domains: ${groups.length}${groups.length ? ` (${groups.map((g) => g.join(' ↔ ')).join('; ')})` : ''}`)
if (showFiles) {
  for (const [f, n] of syncFiles.sort((a, b) => b[1] - a[1])) console.log(`  sync ${n}\t${f}`)
  for (const f of sqliteImports) console.log(`  bun:sqlite\t${f}`)
  for (const f of crossTables) console.log(`  table\t${f}`)
}
