/**
 * The culprit of a report as the list shows it: the top in-app frame its events were grouped on
 * ("InventoryPanel.Refresh (InventoryPanel.cs)"), read from the grouping label that
 * ingest/fingerprint.ts gives a stack grouping (`<error type> at <frame>`, a client's own
 * fingerprint parts after " · "). Null when the report was grouped on its title or message (a
 * player's report, an error from anonymous code): there is no frame to name.
 */
export function culpritOf(r: { groupingLabel: string; errorType: string }): string | null {
  if (!r.errorType) return null
  const lead = `${r.errorType} at `
  if (!r.groupingLabel.startsWith(lead)) return null
  const frame = r.groupingLabel.slice(lead.length).split(' · ')[0]!.trim()
  return frame || null
}
