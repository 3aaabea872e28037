import { projectPath } from '../api/client'
import { useApi } from '../api/resource'
import { Async, Section, Table, formatDate } from '../components'
import { readable as fmt } from '../reports/report-summary'
import type { ReportPerf, ReportReplays } from './types'

/** A report's performance samples (p50 / p95 and the newest rows) and its playable replays; nothing when it has neither. */
export function ReportTelemetry({ slug, number, perfCount, replayCount }: { slug: string; number: number; perfCount: number; replayCount: number }) {
  const perf = useApi<ReportPerf>(perfCount > 0 ? projectPath(slug, `/bugs/${number}/perf`) : null)
  const replays = useApi<ReportReplays>(replayCount > 0 ? projectPath(slug, `/bugs/${number}/replays`) : null)
  return (
    <>
      {perfCount > 0 && (
        <Section title="Performance samples" description="p50 / p95 over the report's snapshots.">
          <Async resource={perf}>
            {(p) => (
              <>
                <p class="small">
                  FPS {fmt(p.summary.fps.p50)} / {fmt(p.summary.fps.p95)} · frame time {fmt(p.summary.frame_time_ms.p50)} / {fmt(p.summary.frame_time_ms.p95)} ms · memory {fmt(p.summary.memory_used_mb.p50)} / {fmt(p.summary.memory_used_mb.p95)} MB ({p.count} samples)
                </p>
                <Table
                  caption="Performance samples, newest first"
                  rows={p.snapshots.slice(0, 20)}
                  rowKey={(s) => s.id}
                  columns={[
                    { key: 't', header: 'When', render: (s) => <span class="nowrap">{formatDate(s.created_at)}</span> },
                    { key: 'f', header: 'FPS', render: (s) => fmt(s.fps) },
                    { key: 'ft', header: 'Frame time (ms)', render: (s) => fmt(s.frame_time_ms) },
                    { key: 'm', header: 'Memory (MB)', render: (s) => fmt(s.memory_used_mb) },
                  ]}
                />
              </>
            )}
          </Async>
        </Section>
      )}
      {replayCount > 0 && (
        <Section title="Session replays">
          <Async resource={replays}>
            {(list) => (
              <ul class="plain-list">
                {list.map((r) => (
                  <li key={r.id}>
                    {r.mime_type === 'image/gif' ? <img src={r.file_url} alt={`Replay recorded ${formatDate(r.created_at)}`} /> : <video controls preload="metadata" src={r.file_url} aria-label={`Replay recorded ${formatDate(r.created_at)}`} />}
                    <div class="small muted">
                      {r.duration_sec === null ? '' : `${r.duration_sec} s · `}
                      {formatDate(r.created_at)}
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </Async>
        </Section>
      )}
    </>
  )
}
