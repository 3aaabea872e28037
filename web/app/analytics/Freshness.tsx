import { useEffect, useState } from 'preact/hooks'
import { Button } from '../components'
import { ago } from './format'

/**
 * How fresh a screen's numbers are — "Updated 3 s ago" — from the `fresh_as_of` of its answers (the
 * oldest of them), kept current as time passes, with a Refresh button that reads them again.
 */
export function Freshness({ at, onRefresh }: { at: (string | undefined)[]; onRefresh: () => void }) {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 5_000)
    return () => clearInterval(id)
  }, [])
  const known = at.filter((t): t is string => Boolean(t)).sort()
  if (!known.length) return null
  const oldest = known[0]!
  return (
    <div class="freshness row small muted">
      <span>
        Updated{' '}
        <time dateTime={oldest} title={new Date(oldest).toLocaleString()}>
          {ago(oldest, Math.max(now, Date.now()))}
        </time>
      </span>
      <Button size="sm" variant="ghost" onClick={() => {
        setNow(Date.now())
        onRefresh()
      }}>
        Refresh
      </Button>
    </div>
  )
}
