import { Elysia } from 'elysia'
import type { AppDeps } from '../../app-deps'
import { authPlugin } from '../../http/auth.plugin'
import { badRequest } from '../../http/errors'
import { liveReportByNumber } from '../reports/project-reports'
import { addAttachment, listAttachments } from './attachments.service'
import { downloadFile } from './file-download'

const tags = ['Attachments']

/** The single `file` field of a multipart body, or 400. */
function fileField(body: unknown): Blob {
  const file = (body as Record<string, unknown> | null | undefined)?.file
  if (Array.isArray(file)) throw badRequest('send one file per request')
  if (!(file instanceof Blob)) throw badRequest('file is required (multipart/form-data field "file")')
  return file
}

export const attachmentsRoutes = (deps: AppDeps) =>
  new Elysia()
    .use(authPlugin(deps))
    .get('/projects/:slug/bugs/:number/attachments', async ({ project, params }) => listAttachments(deps, (await liveReportByNumber(deps.db, project.id, params.number)).id), {
      project: 'bugs.view',
      detail: { tags, summary: 'Attachments of a report' },
    })
    .post(
      '/projects/:slug/bugs/:number/attachments',
      async ({ project, account, user, params, body, set }) => {
        const file = fileField(body)
        const report = await liveReportByNumber(deps.db, project.id, params.number)
        const fileName = file instanceof File && file.name ? file.name : 'attachment'
        const created = await addAttachment(deps, { project, account, report, data: file, fileName, declaredType: file.type || null, actorId: user.id })
        set.status = 201
        return created
      },
      {
        project: 'bugs.edit',
        detail: {
          tags,
          summary: 'Upload one file (multipart field `file`, max 10 MB; text, image, video or JSON)',
          requestBody: {
            required: true,
            content: { 'multipart/form-data': { schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } } } },
          },
        },
      },
    )
    .get('/files/:key', ({ params, request }) => downloadFile(deps.db, deps.files, params.key, request.headers), {
      detail: { tags: ['Public'], summary: 'Download a stored screenshot, attachment or replay by its key' },
    })
