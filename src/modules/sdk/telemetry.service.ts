import type { AppDeps } from '../../app-deps'
import { badRequest, notFound } from '../../http/errors'
import type { Project } from '../projects/projects.repository'
import type { Account } from '../auth/accounts.repository'
import { newId } from '../../lib/ids'
import { requireFeature } from '../auth/plans'
import { chargeUpload } from '../auth/quota'
import { removeFiles } from '../../files/storage'
import { MAX_CUSTOM_METRICS_BYTES, MAX_METADATA_BYTES, type PerfSnapshotInput, type ReplayInput } from './sdk.schemas'
import { createSdkRepository } from './sdk.repository'
import { liveSdkReport } from './sdk-reports'

const MAX_REPLAY_BYTES = 50 * 1024 * 1024

/** The live report `id` of the project, or 404. */
async function requireReport(deps: Pick<AppDeps, 'db'>, project: Project, id: string) {
  const report = await liveSdkReport(deps.db, project.id, id)
  if (!report) throw notFound('bug report not found')
  return report
}

/** Stores a performance sample, tied to a report of the project when `bug_report_id` is given. */
export async function recordPerfSnapshot(deps: Pick<AppDeps, 'db' | 'clock'>, project: Project, input: PerfSnapshotInput) {
  const reportId = input.bug_report_id ? (await requireReport(deps, project, input.bug_report_id)).id : null
  const custom = input.custom_metrics ?? null
  if (custom !== null && Buffer.byteLength(JSON.stringify(custom)) > MAX_CUSTOM_METRICS_BYTES) throw badRequest('custom_metrics: must be at most 16 KB')
  const id = newId()
  const metric = (v: number | null | undefined) => v ?? null
  await createSdkRepository({ db: deps.db }).insertPerfSnapshot({
      id,
      projectId: project.id,
      reportId,
      fps: metric(input.fps),
      frameTimeMs: metric(input.frame_time_ms),
      memoryUsedMb: metric(input.memory_used_mb),
      memoryTotalMb: metric(input.memory_total_mb),
      drawCalls: metric(input.draw_calls),
      triangles: metric(input.triangles),
      cpuUsage: metric(input.cpu_usage),
      gpuUsage: metric(input.gpu_usage),
      loadTimeSec: metric(input.load_time_sec),
      networkLatencyMs: metric(input.network_latency_ms),
      customMetrics: custom === null ? null : JSON.stringify(custom),
    createdAt: deps.clock.now(),
  })
  return { id }
}

/** `metadata` as sent: parsed when it is JSON, else kept as the string; 400 past 16 KB. */
function parseMetadata(metadata: ReplayInput['metadata']): unknown {
  if (metadata === undefined || metadata === '') return null
  if (Buffer.byteLength(typeof metadata === 'string' ? metadata : JSON.stringify(metadata)) > MAX_METADATA_BYTES) throw badRequest('metadata: must be at most 16 KB')
  if (typeof metadata !== 'string') return metadata
  try {
    return JSON.parse(metadata)
  } catch {
    return metadata
  }
}

/** Stores a session replay (tier 3): the file is streamed to disk first, then charged and recorded. */
export async function storeReplay(
  deps: Pick<AppDeps, 'db' | 'clock' | 'files' | 'events'>,
  project: Project,
  account: Account,
  input: ReplayInput,
) {
  requireFeature(account.plan, 'session_replays')
  const report = await requireReport(deps, project, input.bug_report_id)
  const metadata = parseMetadata(input.metadata)
  const fileName = input.file instanceof File ? input.file.name : 'replay'
  const stored = await deps.files.store(deps.db, { data: input.file, fileName, declaredType: input.file.type || null, kind: 'replay', maxBytes: MAX_REPLAY_BYTES })
  const id = newId()
  try {
    await deps.db.write(async (tx) => {
      await chargeUpload(tx, project.accountId, stored.size)
      await createSdkRepository({ db: tx }).insertReplay({
          id,
          projectId: project.id,
          reportId: report.id,
          fileKey: stored.key,
          fileSize: stored.size,
          mimeType: stored.mimeType,
          durationSec: input.duration_sec ?? null,
          metadata,
          createdAt: deps.clock.now(),
        })
    })
  } catch (err) {
    await removeFiles(deps, [stored])
    throw err
  }
  return { id, file_url: deps.files.url(stored.key) }
}
