/**
 * The report list's filter parameters, in the order the dashboard writes them into a list URL (a
 * stable order keeps shared links identical). Saved filters and views hold these and `sort`. Plain
 * data without zod: the dashboard imports it too.
 */
export const LIST_FILTER_KEYS = [
  'status',
  'priority',
  'category',
  'assigned_to',
  'label',
  'source',
  'error_type',
  'q',
  'version',
  'platform',
  'runtime',
  'browser',
  'environment',
  'player',
  'fingerprint',
  'regression',
  'has_screenshot',
  'blocked',
  'overdue',
  'sla',
  'custom_field',
] as const

/** The list's sparkline choices (`spark`): events per UTC day over 14 or 30 days, or per clock hour over 24 hours. */
export const SPARK_RANGES = ['14d', '30d', '24h'] as const
export type SparkRange = (typeof SPARK_RANGES)[number]
