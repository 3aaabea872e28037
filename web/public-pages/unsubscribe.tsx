/** The page an unsubscribe link opens: asks first, so a mail scanner that opens links unsubscribes nobody. */
export function UnsubscribePage(p: { action: string; token: string; heading: string; question: string }) {
  return (
    <>
      <h1>{p.heading}</h1>
      <form class="card" method="post" action={p.action}>
        <p>{p.question}</p>
        <input type="hidden" name="token" value={p.token} />
        <button class="btn" type="submit">
          {p.heading}
        </button>
      </form>
    </>
  )
}

/** After the unsubscribe form: done (the message says what stopped), or the link was not valid. */
export function UnsubscribedPage(p: { message: string | null }) {
  return p.message ? (
    <>
      <h1>Unsubscribed</h1>
      <p class="card" role="status">
        {p.message}
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
