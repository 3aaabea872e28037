import { useEffect, useMemo, useState } from 'preact/hooks'
import { createResource } from '../api/resource'
import { Async, Dialog, ExternalLink, formatBytes } from '../components'
import type { Attachment } from './report-types'
import { reportsApi } from './reports-api'

/** The screenshot, small in the page and full size in a dialog. */
export function Screenshot({ url, title }: { url: string; title: string }) {
  const [open, setOpen] = useState(false)
  return (
    <section class="card report-screenshot">
      <h2>Screenshot</h2>
      <button type="button" class="screenshot-thumb" onClick={() => setOpen(true)} aria-label="View the screenshot full size">
        <img src={url} alt={`Screenshot of report: ${title}`} loading="lazy" />
      </button>
      <Dialog open={open} title="Screenshot" onClose={() => setOpen(false)} wide>
        <img class="screenshot-full" src={url} alt={`Screenshot of report: ${title}, full size`} />
        <p>
          <ExternalLink href={url}>Open the original</ExternalLink>
        </p>
      </Dialog>
    </section>
  )
}

const kindOf = (a: Attachment) => (a.mime_type?.startsWith('image/') ? 'image' : a.mime_type?.startsWith('video/') ? 'video' : 'file')

/** Files attached to the report: images and videos shown inline, everything else as a download link. */
export function Attachments({ slug, number, version }: { slug: string; number: number; version: number }) {
  const attachments = useMemo(() => createResource((signal) => reportsApi.attachments(slug, number, signal)), [slug, number])
  useEffect(() => void attachments.reload(), [attachments, version])
  return (
    <section class="card report-attachments">
      <h2>Attachments</h2>
      <Async resource={attachments} label="Loading attachments…" empty={<p class="muted">No attachments.</p>}>
        {(list) => (
          <ul class="attachment-list">
            {list.map((a) => (
              <li key={a.id}>
                {kindOf(a) === 'image' && <img src={a.file_url} alt={a.file_name} loading="lazy" class="attachment-image" />}
                {kindOf(a) === 'video' && (
                  <video src={a.file_url} controls preload="metadata" class="attachment-video" aria-label={a.file_name}>
                    <track kind="captions" />
                  </video>
                )}
                <a href={a.file_url} download={a.file_name} data-native="">
                  {a.file_name}
                </a>{' '}
                <span class="muted">({formatBytes(a.file_size)})</span>
              </li>
            ))}
          </ul>
        )}
      </Async>
    </section>
  )
}
