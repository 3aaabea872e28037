// Fails when a promise is dropped: a call whose value is a Promise, used as a statement without
// `await`, `void` or `return`. As the data layer turns asynchronous (issue 30), a service that
// forgets to await a repository write would answer before the write commits, and its error would
// never reach the caller; the type checker does not flag that, this does. It needs the TypeScript
// compiler API, which TypeScript 7 (the native `tsc` of this project) does not ship: the devDependency
// `@ts-morph/common` carries TypeScript 5's compiler (and, unlike a second `typescript` package, no
// `tsc` command to shadow ours). Mark a deliberate fire-and-forget with `void`.
// Run: bun scripts/audit/floating-promises.ts
import { join, relative } from 'node:path'
import { ts } from '@ts-morph/common'
import { projectProgram } from './program'

const root = join(import.meta.dir, '../..')
const { program, checker } = projectProgram(root)

const isPromise = (type: ts.Type): boolean => {
  if (type.isUnion()) return type.types.some(isPromise)
  const name = type.getSymbol()?.getName()
  return name === 'Promise' || (checker.getPropertyOfType(type, 'then') !== undefined && checker.getPropertyOfType(type, 'catch') !== undefined)
}

const found: string[] = []
for (const file of program.getSourceFiles()) {
  // The server's code: the dashboard and the tests start work they do not wait for on purpose.
  if (file.isDeclarationFile || !file.fileName.startsWith(join(root, 'src') + '/')) continue
  const visit = (node: ts.Node) => {
    if (ts.isExpressionStatement(node)) {
      let e = node.expression
      while (ts.isParenthesizedExpression(e)) e = e.expression
      // `.catch(…)` is the promise handled on purpose.
      const handled = ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression) && e.expression.name.text === 'catch'
      if (!handled && (ts.isCallExpression(e) || ts.isNewExpression(e)) && isPromise(checker.getTypeAtLocation(e))) {
        const { line } = file.getLineAndCharacterOfPosition(node.getStart())
        found.push(`${relative(root, file.fileName)}:${line + 1}: ${node.getText().split('\n')[0]!.slice(0, 120)}`)
      }
    }
    // An arrow function whose body is a call (`() => save()`) hands its promise on: not dropped.
    ts.forEachChild(node, visit)
  }
  visit(file)
}
for (const f of found) console.log(f)
console.log(`${found.length} dropped promise(s)`)
process.exit(found.length ? 1 : 0)
