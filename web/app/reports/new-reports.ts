/** How many of the newest report numbers are above `baseline`; `more` when the whole batch is new (there may be others beyond it). */
export function countNewReports(baseline: number, newestNumbers: readonly number[]): { count: number; more: boolean } {
  const count = newestNumbers.filter((n) => n > baseline).length
  return { count, more: count > 0 && count === newestNumbers.length }
}

/** "1 new report", "3 new reports", "25+ new reports"; with filters set, "3 new matching reports". */
export function newReportsMessage({ count, more }: { count: number; more: boolean }, filtered = false): string {
  return `${count}${more ? '+' : ''} new ${filtered ? 'matching ' : ''}report${count === 1 && !more ? '' : 's'}`
}
