import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const ROUTES_FILE = fileURLToPath(new URL('../../web/app/routes.tsx', import.meta.url))

/**
 * The dashboard's route table (`web/app/routes.tsx`), read from its source so that a new screen is swept
 * by the browser tests too: each pattern, and whether it is reachable signed out (`public: true`).
 */
export const dashboardRoutes: { path: string; public: boolean }[] = [...readFileSync(ROUTES_FILE, 'utf8').matchAll(/\{ path: '([^']+)', component: \w+(, public: true)?/g)].map((m) => ({
  path: m[1]!,
  public: Boolean(m[2]),
}))
