import type { Seam } from '../../db/client'
import { createReportsRepository } from '../reports/reports.repository'

/** The live report `id` of the project, for the SDK routes that name one (attachments, perf samples, replays); undefined otherwise. */
export async function liveSdkReport(db: Seam, projectId: string, id: string) {
  return createReportsRepository({ db }).liveInProject(projectId, id)
}
