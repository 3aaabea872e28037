// The database template embedded by `bun build --compile` (`with { type: 'file' }`) resolves to a path.
declare module '*.dbtemplate' {
  const path: string
  export default path
}
