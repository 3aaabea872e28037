// File imports embedded by `bun build --compile` (`with { type: 'file' }`) resolve to a path.
declare module '@scalar/api-reference/browser/standalone.js' {
  const path: string
  export default path
}
