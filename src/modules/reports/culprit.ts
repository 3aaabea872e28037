/**
 * A list item's culprit: the top in-app frame the report's events were grouped on
 * ("InventoryPanel.Refresh (InventoryPanel.cs)"), read from the grouping label that
 * ingest/fingerprint.ts gives a stack grouping (`<error type> at <frame>`, a client's own
 * fingerprint parts after " · "). `{ culprit }` when there is one; nothing when the report was
 * grouped on its title or message (a player's report, an error from anonymous code), as a list
 * item's level and handled are absent when no client said.
 */
export function culpritField(r: { groupingLabel: string; errorType: string }): { culprit?: string } {
  const lead = `${r.errorType} at `
  if (!r.errorType || !r.groupingLabel.startsWith(lead)) return {}
  const culprit = r.groupingLabel.slice(lead.length).split(' · ')[0]!.trim()
  return culprit ? { culprit } : {}
}
