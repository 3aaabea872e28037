import { createProject, createReportIn, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { addComment, putSettings, setReport } from '../public/public-fixtures'

export { addComment, createReportIn, putSettings, setReport }

/** A test app with an owner and a project whose public pages can be switched on through the real settings routes. */
export async function pagesWorld(): Promise<{ t: TestApp; owner: TestUser; project: TestProject }> {
  const t = createTestApp()
  const owner = await createUser(t, { name: 'Olivia Owner', email: 'olivia.owner@studio.example', plan: 'self_hosted' })
  const project = await createProject(t, owner, { name: 'Star Forge' })
  return { t, owner, project }
}

/** GETs a page as a browser would (with the cookie header it keeps, if any) and returns status, headers and HTML text. */
export const getPage = (t: TestApp, path: string, ip?: string, cookie?: string) => t.request('GET', path, { ip, headers: { accept: 'text/html', ...(cookie ? { cookie } : {}) } })

/** POSTs an HTML form (urlencoded), as a browser without JavaScript does. */
export const postForm = (t: TestApp, path: string, fields: Record<string, string>, ip?: string, cookie?: string) =>
  t.request('POST', path, { ip, body: new URLSearchParams(fields).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) } })

/** The `name=value` of the voter cookie a page set, as the browser sends it back. */
export function voterCookieOf(res: { headers: Headers }): string {
  const set = res.headers.get('set-cookie') ?? ''
  const m = /^(glitchbox_voter=[^;]+)/.exec(set)
  if (!m) throw new Error(`no voter cookie set: ${set}`)
  return m[1]!
}
