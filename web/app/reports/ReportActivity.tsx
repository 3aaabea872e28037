import { useEffect, useMemo } from 'preact/hooks'
import { createResource } from '../api/resource'
import type { Member } from '../api/types'
import { Async, EmptyState, formatDate } from '../components'
import { describeActivity } from './activity-text'
import { memberName } from './project-lookups'
import { reportsApi } from './reports-api'

/**
 * Who changed what on the report, oldest first; `version` changes whenever the report was changed here.
 * Entries without an actor come from the game (SDK submissions): `reporter` names them.
 */
export function ReportActivity({ slug, number, version, members, reporter }: { slug: string; number: number; version: number; members: Member[] | undefined; reporter: string }) {
  const activity = useMemo(() => createResource((signal) => reportsApi.activity(slug, number, signal)), [slug, number])
  useEffect(() => void activity.reload(), [activity, version])
  return (
    <section class="card report-activity">
      <h2>Activity</h2>
      <Async resource={activity} label="Loading activity…" empty={<EmptyState title="No activity yet" />}>
        {(entries) => (
          <ol class="timeline">
            {entries.map((a) => (
              <li key={a.id}>
                <strong>{a.actor_name ?? (a.actor_id ? 'Former member' : reporter)}</strong> {describeActivity(a, (id) => memberName(members, id))}{' '}
                <time class="muted" dateTime={a.created_at}>
                  {formatDate(a.created_at)}
                </time>
              </li>
            ))}
          </ol>
        )}
      </Async>
    </section>
  )
}
