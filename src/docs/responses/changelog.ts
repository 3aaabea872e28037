import * as z from 'zod'
import { CreatedIdResponse, isoDate, MessageResponse, type OperationDocs } from './common'

export const PublishedChangelogEntry = z.object({ id: z.string(), title: z.string(), body: z.string(), version: z.string().nullable(), published_at: isoDate })
export const PublishedChangelogResponse = z.array(PublishedChangelogEntry)
export const ChangelogEntry = PublishedChangelogEntry.extend({ published_at: isoDate.nullable().describe('null for a draft'), created_at: isoDate, updated_at: isoDate })
export const ChangelogListResponse = z.array(ChangelogEntry)

// Types of the `data` the routes answer, for clients (the web app) that import them.
export type PublishedChangelogResponse = z.output<typeof PublishedChangelogResponse>
export type ChangelogListResponse = z.output<typeof ChangelogListResponse>

export const changelogDocs: OperationDocs = {
  'GET /api/projects/{slug}/changelog': { data: PublishedChangelogResponse },
  'GET /api/projects/{slug}/changelog/all': { data: ChangelogListResponse },
  'POST /api/projects/{slug}/changelog': { status: 201, data: CreatedIdResponse },
  'POST /api/projects/{slug}/changelog/auto-generate': { status: 201, data: ChangelogEntry },
  'PATCH /api/projects/{slug}/changelog/{entryId}': { data: ChangelogEntry },
  'DELETE /api/projects/{slug}/changelog/{entryId}': { data: MessageResponse },
}
