/** Scripts bundled by scripts/build.ts, imported `with { type: 'file' }`: the import is the embedded file's path. */
declare module '*.webasset' {
  const path: string
  export default path
}
