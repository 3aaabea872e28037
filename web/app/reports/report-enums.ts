import type * as z from 'zod'
import type { listQuery } from '../../../src/modules/reports/reports.schemas'
import type { Category, Priority, Status } from '../../../src/modules/reports/reports.types'
import type { SparkRange } from '../../../src/modules/reports/list-filter-keys'

/** A value of an enumeration with the words the dashboard shows for it. */
export interface EnumOption<T extends string> {
  value: T
  label: string
}

// Kept here rather than imported at runtime: the server module would pull Drizzle into the bundle.
// The `satisfies` clauses make the type check fail when the server's enumerations change.
export const STATUS_OPTIONS = [
  { value: 'open', label: 'Open' },
  { value: 'in_progress', label: 'In progress' },
  { value: 'resolved', label: 'Resolved' },
  { value: 'closed', label: 'Closed' },
  { value: 'wont_fix', label: "Won't fix" },
] as const satisfies readonly EnumOption<Status>[]

export const PRIORITY_OPTIONS = [
  { value: 'critical', label: 'Critical' },
  { value: 'high', label: 'High' },
  { value: 'medium', label: 'Medium' },
  { value: 'low', label: 'Low' },
] as const satisfies readonly EnumOption<Priority>[]

export const CATEGORY_OPTIONS = [
  { value: 'crash', label: 'Crash' },
  { value: 'visual', label: 'Visual' },
  { value: 'gameplay', label: 'Gameplay' },
  { value: 'performance', label: 'Performance' },
  { value: 'audio', label: 'Audio' },
  { value: 'ui', label: 'UI' },
  { value: 'network', label: 'Network' },
  { value: 'other', label: 'Other' },
] as const satisfies readonly EnumOption<Category>[]

export const SOURCE_OPTIONS = [
  { value: 'user', label: 'Players and team' },
  { value: 'system', label: 'Auto-filed errors' },
  { value: 'discord', label: 'Discord /report' },
] as const satisfies readonly EnumOption<'user' | 'system' | 'discord'>[]

export const SORT_OPTIONS = [
  { value: 'newest', label: 'Newest first' },
  { value: 'last_seen', label: 'Last seen' },
  { value: 'occurrences', label: 'Most events' },
  { value: 'players', label: 'Most players' },
  { value: 'priority', label: 'Priority' },
  { value: 'upvotes', label: 'Most votes' },
  { value: 'updated', label: 'Recently updated' },
  { value: 'due', label: 'Due date' },
  { value: 'trending', label: 'Trending' },
] as const satisfies readonly EnumOption<NonNullable<z.input<typeof listQuery>['sort']>>[]

/** The list's sparkline choices (`spark`). */
export const SPARK_OPTIONS = [
  { value: '14d', label: 'Events per day, 14 days' },
  { value: '30d', label: 'Events per day, 30 days' },
  { value: '24h', label: 'Events per hour, 24 hours' },
] as const satisfies readonly EnumOption<SparkRange>[]

export type Source = (typeof SOURCE_OPTIONS)[number]['value']
export type Sort = (typeof SORT_OPTIONS)[number]['value']
export type { Category, Priority, Status }

/** The label of `value` among `options`, or the raw value when it is unknown. */
export function labelOf(options: readonly EnumOption<string>[], value: string | null | undefined): string {
  if (value == null) return ''
  return options.find((o) => o.value === value)?.label ?? value
}

/** Whether `value` is one of `options`' values (narrows it). */
export function isOption<T extends string>(options: readonly EnumOption<T>[], value: string | null | undefined): value is T {
  return value != null && options.some((o) => o.value === value)
}
