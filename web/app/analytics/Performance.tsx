import { projectPath } from '../api/client'
import { useApi } from '../api/resource'
import { Async, EmptyState, Section, Table, formatDate } from '../components'
import type { RouteProps } from '../router'
import { AnalyticsFrame } from './AnalyticsFrame'
import type { PerfSummary } from './types'

const fmt = (x: number | null) => (x === null ? '–' : String(x))
type Metric = { samples: number; p50: number | null; p95: number | null }
const cell = (m: Metric) => `${fmt(m.p50)} / ${fmt(m.p95)}`

/** `/projects/:slug/analytics/performance`: p50 / p95 by version and platform, and scene loads. */
export function PerformancePage({ params }: RouteProps) {
  const slug = params.slug!
  const perf = useApi<PerfSummary>(projectPath(slug, '/perf-summary'))
  return (
    <AnalyticsFrame slug={slug} title="Performance">
      <Async resource={perf}>
        {(p) => (
          <>
            <Section title="By version and platform" description="p50 / p95 of the snapshots sent with reports (nearest rank over rounded values).">
              {p.by_version_platform.length === 0 ? (
                <EmptyState title="No performance snapshots yet" />
              ) : (
                <Table
                  caption="Performance percentiles by version and platform"
                  rows={p.by_version_platform}
                  rowKey={(r) => `${r.game_version}|${r.platform}`}
                  columns={[
                    { key: 'v', header: 'Version', render: (r) => r.game_version || '–' },
                    { key: 'p', header: 'Platform', render: (r) => r.platform || '–' },
                    { key: 'f', header: 'FPS', render: (r) => cell(r.fps) },
                    { key: 't', header: 'Frame time (ms)', render: (r) => cell(r.frame_time_ms) },
                    { key: 'm', header: 'Memory (MB)', render: (r) => cell(r.memory_used_mb) },
                    { key: 'n', header: 'Samples', render: (r) => (r.fps).samples },
                  ]}
                />
              )}
            </Section>
            <Section title="Scene loads" description="Snapshots sent without a report.">
              <p>
                Load time p50 / p95: {cell(p.scene_loads.load_time_sec)} s over {(p.scene_loads.load_time_sec).samples} samples
              </p>
              <Table
                caption="Newest scene-load samples"
                rows={p.scene_loads.samples}
                rowKey={(s) => s.id}
                columns={[
                  { key: 't', header: 'When', render: (s) => <span class="nowrap">{formatDate(s.created_at)}</span> },
                  { key: 'l', header: 'Load time (s)', render: (s) => fmt(s.load_time_sec) },
                  { key: 'f', header: 'FPS', render: (s) => fmt(s.fps) },
                  { key: 'm', header: 'Memory (MB)', render: (s) => fmt(s.memory_used_mb) },
                ]}
              />
            </Section>
          </>
        )}
      </Async>
    </AnalyticsFrame>
  )
}
