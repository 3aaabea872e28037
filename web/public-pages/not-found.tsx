/** The page for a disabled public page, an unknown project or report: says so plainly. */
export function NotFoundPage(p: { heading?: string; message?: string }) {
  return (
    <>
      <h1>{p.heading ?? 'Page not found'}</h1>
      <p class="card">{p.message ?? 'This page does not exist, or it is not public.'}</p>
    </>
  )
}
