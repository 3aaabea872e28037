import type { ModuleEntry } from '../sentry/minidump/module-list'
import type { SymIndex } from './sym-index.reader'
import type { ModuleAt } from './walk.types'

/** Where the walker gets a module's symbol index: by the module's debug id, null when none was uploaded. */
export type SymbolsFor = (debugId: string, module: { name: string; codeId: string | null }) => SymIndex | null | Promise<SymIndex | null>

/**
 * The dump's modules by address, each module's symbols asked for once, when an address first
 * falls in it: a dump lists a hundred modules and a stack touches a few. A symbols source that
 * throws counts as no symbols.
 */
export class ModuleMap {
  private readonly sorted: ModuleEntry[]
  private readonly symbols = new Map<ModuleEntry, Promise<SymIndex | null>>()

  constructor(entries: readonly ModuleEntry[], private readonly symbolsFor: SymbolsFor) {
    this.sorted = [...entries].sort((a, b) => (a.base < b.base ? -1 : a.base > b.base ? 1 : 0))
  }

  /** The module whose range holds `address`, without its symbols. */
  entryAt(address: bigint): ModuleEntry | null {
    let [lo, hi] = [0, this.sorted.length]
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.sorted[mid]!.base <= address) lo = mid + 1
      else hi = mid
    }
    const entry = this.sorted[lo - 1]
    return entry && address < entry.end ? entry : null
  }

  /** The module holding `address` with its symbols. */
  moduleAt = async (address: bigint): Promise<ModuleAt | null> => {
    const entry = this.entryAt(address)
    return entry ? { entry, symbols: await this.symbolsOf(entry) } : null
  }

  private symbolsOf(entry: ModuleEntry): Promise<SymIndex | null> {
    let found = this.symbols.get(entry)
    if (!found) {
      const id = entry.module.debugId
      found = id ? Promise.resolve().then(() => this.symbolsFor(id, { name: entry.module.name, codeId: entry.module.codeId })).catch(() => null) : Promise.resolve(null)
      this.symbols.set(entry, found)
    }
    return found
  }
}
