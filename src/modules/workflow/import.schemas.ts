import * as z from 'zod'
import { webUrl } from '../../net/web-url'
import { CATEGORIES, PRIORITIES, SOURCES, STATUSES } from '../reports/reports.types'

export const MAX_IMPORT_ITEMS = 1_000

const text = (max: number) => z.string().max(max).nullish()

/** One report to import; unknown fields are ignored, absent ones take the defaults. */
export const importItem = z.object({
  title: z.string().trim().min(1).max(300),
  description: z.string().max(50_000).nullish(),
  status: z.enum(STATUSES).nullish(),
  priority: z.enum(PRIORITIES).nullish(),
  category: z.enum(CATEGORIES).nullish(),
  platform: text(100),
  game_version: text(100),
  steps_to_reproduce: text(20_000),
  external_id: z.union([z.string().trim().min(1).max(200), z.number().int()]).nullish(),
  external_url: webUrl(2_000).nullish(),
  source: z.enum(SOURCES).nullish(),
})
export type ImportItem = z.infer<typeof importItem>

/** The JSON body: 1 to 1,000 items, each checked on its own (a bad item is reported, the others imported). */
export const importBody = z.object({ bugs: z.array(z.unknown()).min(1).max(MAX_IMPORT_ITEMS) })
