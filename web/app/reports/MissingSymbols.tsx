import { CodeBlock } from '../components'
import { missingSymbolsOf, uploadCommand } from './missing-symbols'

/**
 * Above a native crash's stack: each module of it without symbols in the project ("missing symbols
 * for kernel32.dll (debug id …)") and the sentry-cli command that uploads them; nothing when none is missing.
 */
export function MissingSymbols({ slug, metadata }: { slug: string; metadata: unknown }) {
  const missing = missingSymbolsOf(metadata)
  if (!missing.length) return null
  return (
    <section class="notice missing-symbols" aria-label="Missing symbols">
      <ul>
        {missing.map((m) => (
          <li key={m.debug_id}>
            missing symbols for <code>{m.module}</code> (debug id <code>{m.debug_id}</code>)
          </li>
        ))}
      </ul>
      <p class="small">Upload them from the folder of the build's symbols (dump_syms writes one .sym per module); crashes are read with them from then on.</p>
      <CodeBlock label="upload command" code={uploadCommand(slug, missing, window.location.origin)} />
    </section>
  )
}
