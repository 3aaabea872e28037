// Loaded only inside the compiled binary (static-assets.ts checks Bun.isStandaloneExecutable): the
// scripts scripts/build.ts bundled into dist/web-assets/ become files embedded in the executable.
import vote from '../../dist/web-assets/gb-vote.webasset' with { type: 'file' }
import widget from '../../dist/web-assets/gb-widget.webasset' with { type: 'file' }

/** Paths of the embedded scripts inside the binary. */
export const EMBEDDED_SCRIPTS = { vote, widget }
