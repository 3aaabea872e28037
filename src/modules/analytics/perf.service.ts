import type { AppDeps } from '../../app-deps'
import type { Account } from '../auth/accounts.repository'
import { requireFeature } from '../auth/plans'
import { liveReport } from '../reports/project-reports'
import { createSdkRepository, type PerfSnapshot } from '../sdk/sdk.repository'
import { createAnalyticsRepository } from './analytics.repository'
import { newestFirst } from '../../lib/semver'
import { PERF_METRICS, percentile, SCENE_LOAD, type PerfMetric } from './perf.metrics'

type Deps = Pick<AppDeps, 'db' | 'files'>
const SAMPLES = 200
const SCENE_SAMPLES = 50

type Hist = { value: number; count: number }[]
type MetricSummary = { samples: number; p50: number | null; p95: number | null }
const summary = (byMetric: Map<string, Hist>, prefix = ''): Record<PerfMetric, MetricSummary> =>
  Object.fromEntries(
    PERF_METRICS.map((m) => {
      const h = (byMetric.get(prefix + m.key) ?? []).sort((a, b) => a.value - b.value)
      return [m.key, { samples: h.reduce((s, b) => s + b.count, 0), p50: percentile(h, 0.5), p95: percentile(h, 0.95) }]
    }),
  ) as Record<PerfMetric, MetricSummary>

function snapshotView(s: PerfSnapshot) {
  return {
    id: s.id,
    fps: s.fps,
    frame_time_ms: s.frameTimeMs,
    memory_used_mb: s.memoryUsedMb,
    memory_total_mb: s.memoryTotalMb,
    draw_calls: s.drawCalls,
    triangles: s.triangles,
    cpu_usage: s.cpuUsage,
    gpu_usage: s.gpuUsage,
    load_time_sec: s.loadTimeSec,
    network_latency_ms: s.networkLatencyMs,
    custom_metrics: s.customMetrics,
    created_at: s.createdAt.toISOString(),
  }
}

/** `/bugs/{number}/perf`: the report's snapshots (newest 200) with p50/p95 of each metric over all of them. */
export async function reportPerf(deps: Deps, projectId: string, rawNumber: string) {
  const report = await liveReport(deps.db, projectId, rawNumber)
  const rows = await createSdkRepository({ db: deps.db }).reportSnapshots(report.id)
  const byMetric = new Map<string, Hist>()
  for (const m of PERF_METRICS) {
    const counts = new Map<number, number>()
    for (const s of rows) {
      const v = s[m.field]
      if (v !== null && Number.isFinite(v)) counts.set(m.round(v), (counts.get(m.round(v)) ?? 0) + 1)
    }
    byMetric.set(m.key, [...counts].map(([value, count]) => ({ value, count })))
  }
  return { report_number: report.reportNumber, game_version: report.gameVersion, platform: report.platform, count: rows.length, summary: summary(byMetric), snapshots: rows.slice(0, SAMPLES).map(snapshotView) }
}

/** Versions summarized by /perf-summary: the newest ten (release-health order) and samples without a version. */
const SUMMARY_VERSIONS = 10

/** `/perf-summary`: p50/p95 of fps, frame time, memory and load time per version (the 10 newest and none) and platform, scene-load percentiles and the newest scene-load samples. */
export async function perfSummary(deps: Deps, projectId: string) {
  const repo = createAnalyticsRepository({ db: deps.db })
  const seen = await repo.versions(projectId)
  const versions = ['', ...newestFirst(seen.map((v) => ({ version: v.version, firstSeen: v.firstSeen.getTime() }))).slice(0, SUMMARY_VERSIONS).map((v) => v.version)]
  const rows = await repo.perfHistogram(projectId, versions)
  const groups = new Map<string, { gameVersion: string; platform: string; byMetric: Map<string, Hist> }>()
  const scene = new Map<string, Hist>()
  for (const r of rows) {
    if (r.metric.startsWith(SCENE_LOAD)) {
      const h = scene.get(r.metric) ?? []
      h.push({ value: r.value, count: r.count })
      scene.set(r.metric, h)
      continue
    }
    const key = `${r.gameVersion}\u0000${r.platform}`
    const g = groups.get(key) ?? { gameVersion: r.gameVersion, platform: r.platform, byMetric: new Map() }
    const h = g.byMetric.get(r.metric) ?? []
    h.push({ value: r.value, count: r.count })
    g.byMetric.set(r.metric, h)
    groups.set(key, g)
  }
  const samples = await createSdkRepository({ db: deps.db }).sceneLoadSnapshots(projectId, SCENE_SAMPLES)
  return {
    by_version_platform: [...groups.values()]
      .sort((a, b) => (a.gameVersion === b.gameVersion ? a.platform.localeCompare(b.platform) : b.gameVersion.localeCompare(a.gameVersion)))
      .map((g) => ({ game_version: g.gameVersion, platform: g.platform, ...summary(g.byMetric) })),
    scene_loads: { ...summary(scene, SCENE_LOAD), samples: samples.map(snapshotView) },
  }
}

/** `/bugs/{number}/replays` (tier 3): the report's replays, oldest first, with their file URLs. */
export async function reportReplays(deps: Deps, account: Account, projectId: string, rawNumber: string) {
  requireFeature(account.plan, 'session_replays')
  const report = await liveReport(deps.db, projectId, rawNumber)
  return (await createSdkRepository({ db: deps.db }).reportReplays(report.id)).map((r) => ({ id: r.id, file_url: deps.files.url(r.fileKey), mime_type: r.mimeType, file_size: r.fileSize, duration_sec: r.durationSec, metadata: r.metadata, created_at: r.createdAt.toISOString() }))
}
