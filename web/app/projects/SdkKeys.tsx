import type { RotatedKey } from '../api/types'
import { CopyButton, formatDate } from '../components'

/** The SDK key with a copy button. */
export function KeyLine({ apiKey }: { apiKey: string }) {
  return (
    <div class="keyline">
      <code aria-label="SDK key">{apiKey}</code>
      <CopyButton text={apiKey} label="Copy SDK key" />
    </div>
  )
}

/** The key before the last rotation while its grace period runs: it still works until the date shown. */
export function PreviousKey({ keys }: { keys: RotatedKey }) {
  if (!keys.previous_api_key || !keys.previous_api_key_expires_at) return null
  return (
    <div class="stack" style="gap:0.3rem">
      <p class="muted small" style="margin:0">
        The previous key still works until {formatDate(keys.previous_api_key_expires_at)}, so builds already shipped can report while players update:
      </p>
      <div class="keyline">
        <code aria-label="Previous SDK key">{keys.previous_api_key}</code>
        <CopyButton text={keys.previous_api_key} label="Copy previous SDK key" />
      </div>
    </div>
  )
}
