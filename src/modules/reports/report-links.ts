/** The dashboard page of a report, for links in mails and messages (web/app's `/projects/:slug/reports/:number`). */
export const reportPageUrl = (publicUrl: string, slug: string, number: number) => `${publicUrl}/projects/${encodeURIComponent(slug)}/reports/${number}`

/** The dashboard's report list of a project. */
export const reportListUrl = (publicUrl: string, slug: string) => `${publicUrl}/projects/${encodeURIComponent(slug)}/reports`
