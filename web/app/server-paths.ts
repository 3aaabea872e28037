/**
 * Paths that belong to the server, not to the dashboard: the API, the public pages, the API docs, the
 * widget, health and the dashboard's own assets. The router loads links to them normally; the server
 * answers an unknown one with its own 404 (JSON under /api, HTML for the public pages), and any other
 * unknown path a browser opens with the dashboard's "Page not found" screen.
 */
export const SERVER_PATHS = /^\/(api|tracker|roadmap|changelog|docs|openapi\.json|widget\.js|health|assets|public-assets)(\/|$|\?)/

/** Whether `pathname` belongs to the server (see SERVER_PATHS). */
export const isServerPath = (pathname: string): boolean => SERVER_PATHS.test(pathname)
