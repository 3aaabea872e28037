// The project as the TypeScript compiler sees it, for the audits that need types (floating-promises.ts,
// data-layer.ts). `@ts-morph/common` carries the compiler (TypeScript 7, our `tsc`, has no API) but
// not its lib files on disk: they are served from memory, else every global type (Array, Promise)
// is missing and expressions type as `any`, which would blind the audits.
import { dirname, join } from 'node:path'
import { getLibFiles, ts } from '@ts-morph/common'

const LIB = '/__ts_lib__'

/** A program over tsconfig.json's files, with its type checker. */
export function projectProgram(root: string) {
  const configPath = join(root, 'tsconfig.json')
  const config = ts.parseJsonConfigFileContent(ts.readConfigFile(configPath, ts.sys.readFile).config, ts.sys, dirname(configPath))
  const options = { ...config.options, noEmit: true }
  const libs = new Map(getLibFiles().map((f) => [join(LIB, f.fileName), f.text]))
  const host = ts.createCompilerHost(options)
  const { getSourceFile, fileExists, readFile } = host
  host.getDefaultLibLocation = () => LIB
  host.getDefaultLibFileName = (o) => join(LIB, ts.getDefaultLibFileName(o))
  host.getSourceFile = (name, language, ...rest) => (libs.has(name) ? ts.createSourceFile(name, libs.get(name)!, language) : getSourceFile.call(host, name, language, ...rest))
  host.fileExists = (name) => libs.has(name) || fileExists.call(host, name)
  host.readFile = (name) => libs.get(name) ?? readFile.call(host, name)
  const program = ts.createProgram({ rootNames: config.fileNames, options, host })
  return { program, checker: program.getTypeChecker() }
}
