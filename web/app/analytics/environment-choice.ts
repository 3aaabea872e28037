/** The choice that counts every environment (release health's `?environment=` left out). */
export const ALL_ENVIRONMENTS = 'all'
const DEFAULT = 'production'
const keyOf = (slug: string) => `glitchbox.release-environment.${slug}`

/** The environment release health shows for a project in this browser: the last one chosen, else `production`. */
export function chosenEnvironment(slug: string): string {
  try {
    return localStorage.getItem(keyOf(slug)) || DEFAULT
  } catch {
    // Storage refused (private mode, a sandboxed frame): the default still works.
    return DEFAULT
  }
}

/** Remembers the environment chosen for a project in this browser. */
export function rememberEnvironment(slug: string, environment: string): void {
  try {
    localStorage.setItem(keyOf(slug), environment)
  } catch {
    // Not remembered, still shown: the choice lives in the page's address too.
  }
}

/** The `query` of a release-health request for a choice. */
export const environmentQuery = (environment: string): Record<string, string> => (environment === ALL_ENVIRONMENTS ? {} : { environment })
