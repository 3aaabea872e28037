/** The unsubscribe link of a reply mail: asks first, so a mail scanner that opens links unsubscribes nobody. */
export function UnsubscribePage(p: { token: string }) {
  return (
    <>
      <h1>Stop reply emails</h1>
      <form class="card" method="post" action="/replies/unsubscribe">
        <p>You get an email when a team replies to a bug report you sent with your address. Stop these emails for this game?</p>
        <input type="hidden" name="token" value={p.token} />
        <button class="btn" type="submit">
          Stop reply emails
        </button>
      </form>
    </>
  )
}

/** After the unsubscribe form: done, or the link was not valid. */
export function UnsubscribedPage(p: { projectName: string | null }) {
  return p.projectName ? (
    <>
      <h1>Unsubscribed</h1>
      <p class="card" role="status">
        You will get no more reply emails from {p.projectName}.
      </p>
    </>
  ) : (
    <>
      <h1>Link not valid</h1>
      <p class="card" role="alert">
        This unsubscribe link is not valid. Use the link from the most recent email.
      </p>
    </>
  )
}
