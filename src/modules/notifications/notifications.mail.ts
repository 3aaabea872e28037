import type { Mail } from '../../mail/mailer'

/** Escapes text for HTML. */
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

export interface MailContent {
  to: string
  subject: string
  /** Opening line, e.g. "Ada assigned you a report in Space Game." */
  intro: string
  /** Paragraphs or "label: value" lines after the intro. */
  body: string[]
  /** The main call to action. */
  link?: { label: string; url: string }
  /** Why the recipient gets this mail and how to stop it. */
  unsubscribe: { reason: string; url: string }
}

/** One notification mail with a plain-text and an HTML part, both carrying the unsubscribe link. */
export function renderMail(c: MailContent): Mail {
  const text = [
    c.intro,
    '',
    ...c.body,
    ...(c.link ? ['', `${c.link.label}: ${c.link.url}`] : []),
    '',
    '--',
    `${c.unsubscribe.reason} Unsubscribe: ${c.unsubscribe.url}`,
  ].join('\n')
  const para = (s: string) => `<p style="margin:0 0 12px">${esc(s).replace(/\n/g, '<br>')}</p>`
  const html = [
    '<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1b1f24;max-width:600px">',
    para(c.intro),
    ...c.body.map(para),
    c.link ? `<p><a href="${esc(c.link.url)}" style="color:#2E5BFF">${esc(c.link.label)}</a></p>` : '',
    `<hr><p style="font-size:12px;color:#667">${esc(c.unsubscribe.reason)} <a href="${esc(c.unsubscribe.url)}">Unsubscribe</a></p>`,
    '</body></html>',
  ].join('')
  return { to: c.to, subject: c.subject, text, html }
}
