import { CATEGORIES } from '../../src/modules/reports/reports.types'
import { CATEGORY_LABELS } from './labels'

/** Largest screenshot the report form takes. */
export const MAX_SCREENSHOT_MB = 5

export interface ReportFormValues {
  title?: string
  description?: string
  category?: string
  email?: string
}

/**
 * The "Report a bug" form; it posts (multipart, for the screenshot) to the page route, which files
 * through the SDK submit service. With JavaScript, public reports like the title being typed are
 * suggested under it (client/suggest.ts), each with a vote button when the tracker takes votes.
 */
export function ReportFormPage(p: { slug: string; values: ReportFormValues; error?: string }) {
  const v = p.values
  const slug = encodeURIComponent(p.slug)
  return (
    <>
      <p>
        <a href={`/tracker/${slug}`}>← All reports</a>
      </p>
      <h1>Report a bug</h1>
      {p.error && (
        <p class="card error" role="alert">
          {p.error}
        </p>
      )}
      <form class="card" method="post" action={`/tracker/${slug}/report`} enctype="multipart/form-data" data-suggest={`/api/tracker/${slug}/similar`} data-vote={`/api/tracker/${slug}/bugs/`}>
        <div class="field">
          <label for="title">Title</label>
          <input id="title" name="title" type="text" required maxLength={300} value={v.title ?? ''} autocomplete="off" aria-describedby="suggestions-h" />
        </div>
        <section id="suggestions" class="suggestions" aria-labelledby="suggestions-h" aria-live="polite" hidden>
          <h2 id="suggestions-h">Already reported?</h2>
          <p class="meta">If one of these is your bug, vote for it instead of filing it again.</p>
          <ul />
        </section>
        <div class="field">
          <label for="description">Description</label>
          <textarea id="description" name="description" required maxLength={50000}>
            {v.description ?? ''}
          </textarea>
        </div>
        <div class="field">
          <label for="category">Category</label>
          <select id="category" name="category">
            {CATEGORIES.map((c) => (
              <option value={c} selected={(v.category ?? 'other') === c}>
                {CATEGORY_LABELS[c]}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="screenshot">Screenshot (optional, PNG, JPEG, GIF or WebP, up to {MAX_SCREENSHOT_MB} MB)</label>
          <input id="screenshot" name="screenshot" type="file" accept="image/png,image/jpeg,image/gif,image/webp" />
        </div>
        <div class="field">
          <label for="email">Email (optional, only the team sees it)</label>
          <input id="email" name="email" type="email" maxLength={320} value={v.email ?? ''} aria-describedby="email-hint" />
          <p id="email-hint" class="meta">
            We email you when the team replies to your report. Every mail has a link to stop them.
          </p>
        </div>
        <button class="btn" type="submit">
          Send report
        </button>
      </form>
    </>
  )
}

/** What a player sees after filing: the report number. */
export function ReportFiledPage(p: { slug: string; number: number; stacked: boolean; visible: boolean }) {
  return (
    <>
      <h1>Thank you!</h1>
      <p class="card" role="status">
        {p.stacked ? `This matches a report we already have: #${p.number}. We added yours to it.` : `Your report was filed as #${p.number}.`}
        {!p.visible && ' The team reads every report; it appears on this page once they have looked at it.'}
      </p>
      <p>
        {p.visible && (
          <>
            <a href={`/tracker/${encodeURIComponent(p.slug)}/${p.number}`}>View report #{p.number}</a> ·{' '}
          </>
        )}
        <a href={`/tracker/${encodeURIComponent(p.slug)}`}>Back to all reports</a>
      </p>
    </>
  )
}
