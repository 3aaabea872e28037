import { Elysia } from 'elysia'
import type { AppDeps } from '../../app-deps'
import { authPlugin } from '../../http/auth.plugin'
import { debugFileParams } from './debug-files.schemas'
import { deleteDebugFile, listDebugFiles } from './debug-files.service'

const tags = ['Debug files']

/** The project's "Debug files" screen: uploads listed for members, deleted with the project.settings permission. */
export function debugFilesRoutes(deps: AppDeps) {
  return new Elysia()
    .use(authPlugin(deps))
    .get('/projects/:slug/debug-files', ({ project }) => listDebugFiles(deps, project.id), {
      project: true,
      detail: { tags, summary: 'Debug files uploaded to the project (symbols, source map bundles), newest first' },
    })
    .delete('/projects/:slug/debug-files/:id', ({ project, params }) => deleteDebugFile(deps, project.id, params.id), {
      project: 'project.settings',
      params: debugFileParams,
      detail: { tags, summary: 'Delete an uploaded debug file' },
    })
}
