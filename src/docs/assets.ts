import { fileURLToPath } from 'node:url'

let embedded: string | null = null

/** Called by the binary's entry point with the path of the docs bundle embedded at compile time. */
export function useEmbeddedScalarBundle(path: string): void {
  embedded = path
}

/** Path of Scalar's standalone bundle: the embedded copy in the binary, else the installed package. */
export function scalarBundlePath(): string {
  return embedded ?? Bun.resolveSync('@scalar/api-reference/browser/standalone.js', fileURLToPath(new URL('.', import.meta.url)))
}
