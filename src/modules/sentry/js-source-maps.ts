import type { AppDeps } from '../../app-deps'

type Json = Record<string, unknown>

export type JsEventMapper = (deps: Pick<AppDeps, 'db' | 'files'>, projectId: string, event: Json) => Promise<Json | null>

let mapper: JsEventMapper | null = null

/**
 * Registers how JavaScript events are mapped through source maps: debug-files does it from its
 * module file, as the maps are its uploads (a hook, so the two domains import each other in one
 * direction only).
 */
export function registerJsEventMapper(fn: JsEventMapper): void {
  mapper = fn
}

/**
 * The Sentry event with its minified frames mapped through the project's own source maps, before it
 * is read and grouped; the event as it came when nothing is registered, no map applies, or anything
 * fails. Mapping never fails the filing of a crash.
 */
export async function mapJsEvent(deps: Pick<AppDeps, 'db' | 'files' | 'logger'>, projectId: string, event: Json): Promise<Json> {
  if (!mapper) return event
  try {
    return (await mapper(deps, projectId, event)) ?? event
  } catch (err) {
    deps.logger.warn('a JavaScript event could not be mapped through source maps; filed as sent', { project_id: projectId, error: err instanceof Error ? err.message : String(err) })
    return event
  }
}
