/** `v` rounded to `digits` significant digits (1234 → 1230, 987.4 → 987): a bounded number of buckets per decade. */
export function significant(v: number, digits: number): number {
  if (v === 0) return 0
  const f = 10 ** (digits - 1 - Math.floor(Math.log10(Math.abs(v))))
  return Math.round(v * f) / f
}

/** The performance metrics summarized, with the rounding their histograms keep (README "Analytics"). */
export const PERF_METRICS = [
  { key: 'fps', field: 'fps', round: (v: number) => Math.round(v) },
  { key: 'frame_time_ms', field: 'frameTimeMs', round: (v: number) => Math.round(v * 10) / 10 },
  { key: 'memory_used_mb', field: 'memoryUsedMb', round: (v: number) => significant(v, 3) },
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
