/** The performance metrics summarized, with the rounding their histograms keep (README "Analytics"). */
export const PERF_METRICS = [
  { key: 'fps', field: 'fps', round: (v: number) => Math.round(v) },
  { key: 'frame_time_ms', field: 'frameTimeMs', round: (v: number) => Math.round(v * 10) / 10 },
  { key: 'memory_used_mb', field: 'memoryUsedMb', round: (v: number) => Math.round(v) },
  { key: 'load_time_sec', field: 'loadTimeSec', round: (v: number) => Math.round(v * 100) / 100 },
] as const

/** Metric-name prefix of samples without a report (scene loads), kept apart from the report samples. */
export const SCENE_LOAD = 'scene_load.'

export type PerfMetric = (typeof PERF_METRICS)[number]['key']

/** Nearest-rank percentile of a histogram sorted by value: the first value whose cumulative count reaches ceil(p × n). */
export function percentile(sorted: { value: number; count: number }[], p: number): number | null {
  const n = sorted.reduce((s, b) => s + b.count, 0)
  if (n === 0) return null
  const rank = Math.max(1, Math.ceil(p * n))
  let seen = 0
  for (const b of sorted) {
    seen += b.count
    if (seen >= rank) return b.value
  }
  return sorted.at(-1)!.value
}
