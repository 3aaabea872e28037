/** The slot of a (project, title key) pair: a 32-bit hash, so a long spike's inbox costs little memory. */
const slotOf = (projectId: string, titleKey: string) => Bun.hash.crc32(`${projectId}\n${titleKey}`)

/**
 * The seqs of queued reports by project and title key, kept in memory for the same-title lookup of
 * every submit (report-inbox.ts). The table has no index on the title: the keys of a burst land at
 * random in such an index, which dirtied one of its pages per report at every commit. Entries are
 * hints: two titles may share a slot, and a write that rolled back leaves its seq behind, so the
 * caller checks each candidate against its row and drops the ones that do not match (`forget`).
 */
export class QueuedTitles {
  private slots = new Map<number, number | number[]>()

  add(projectId: string, titleKey: string, seq: number): void {
    const slot = slotOf(projectId, titleKey)
    const held = this.slots.get(slot)
    if (held === undefined) this.slots.set(slot, seq)
    else if (typeof held === 'number') {
      if (held !== seq) this.slots.set(slot, [held, seq])
    } else if (!held.includes(seq)) held.push(seq)
  }

  /** Seqs that may hold this title, oldest first. */
  candidates(projectId: string, titleKey: string): readonly number[] {
    const held = this.slots.get(slotOf(projectId, titleKey))
    if (held === undefined) return []
    return typeof held === 'number' ? [held] : held
  }

  forget(projectId: string, titleKey: string, seq: number): void {
    const slot = slotOf(projectId, titleKey)
    const held = this.slots.get(slot)
    if (held === seq) this.slots.delete(slot)
    else if (Array.isArray(held)) {
      const left = held.filter((s) => s !== seq)
      if (left.length === 0) this.slots.delete(slot)
      else this.slots.set(slot, left.length === 1 ? left[0]! : left)
    }
  }

  get size(): number {
    return this.slots.size
  }
}
