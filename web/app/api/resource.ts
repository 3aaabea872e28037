/** Loading/error/data signals around an API call, as a plain object (`createResource`) or a hook (`useApi`). */
import { signal, type Signal } from '@preact/signals'
import { useEffect, useMemo } from 'preact/hooks'
import { api, ApiError, type RequestOptions } from './client'

export type Resource<T> = {
  data: Signal<T | undefined>
  error: Signal<ApiError | undefined>
  loading: Signal<boolean>
  /** Loads again; the data stays shown while it loads. Resolves when done (never rejects). */
  reload: () => Promise<void>
  /** Replaces the data locally (after a save that answered the new value). */
  set: (value: T) => void
}

/** A resource over any fetcher; a newer load wins over one still running. */
export function createResource<T>(fetcher: (signal: AbortSignal) => Promise<T>): Resource<T> {
  const data = signal<T | undefined>(undefined)
  const error = signal<ApiError | undefined>(undefined)
  const loading = signal(false)
  let current: AbortController | null = null
  const reload = async () => {
    current?.abort()
    const ctrl = new AbortController()
    current = ctrl
    loading.value = true
    error.value = undefined
    try {
      const value = await fetcher(ctrl.signal)
      if (current !== ctrl) return
      data.value = value
    } catch (err) {
      if (current !== ctrl || (err as Error)?.name === 'AbortError') return
      error.value = err instanceof ApiError ? err : new ApiError(0, (err as Error)?.message ?? String(err))
    } finally {
      if (current === ctrl) loading.value = false
    }
  }
  return {
    data,
    error,
    loading,
    reload,
    set: (value) => {
      data.value = value
    },
  }
}

/**
 * `const projects = useApi<ProjectSummary[]>('/projects')`: loads on mount and whenever the path or query changes;
 * `null` as path waits. Render with `<Async resource={projects}>{(list) => …}</Async>`.
 */
export function useApi<T>(path: string | null, opts: Omit<RequestOptions, 'signal'> = {}): Resource<T> {
  return useFetched(path, opts, (signal) => api.get<T>(path!, { ...opts, signal }))
}

/** `useApi` for answers whose headers matter too: the resource holds `{ data, headers }`. */
export function useApiWithHeaders<T>(path: string | null, opts: Omit<RequestOptions, 'signal'> = {}): Resource<{ data: T; headers: Headers }> {
  return useFetched(path, opts, (signal) => api.getWithHeaders<T>(path!, { ...opts, signal }))
}

function useFetched<T>(path: string | null, opts: Omit<RequestOptions, 'signal'>, fetcher: (signal: AbortSignal) => Promise<T>): Resource<T> {
  const key = path === null ? null : `${path}|${JSON.stringify(opts.query ?? {})}`
  const res = useMemo(() => createResource<T>(fetcher), [key])
  useEffect(() => {
    if (key !== null) void res.reload()
  }, [res])
  if (key === null) res.loading.value = true
  return res
}
