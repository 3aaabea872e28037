import { useEffect, useMemo, useState } from 'preact/hooks'
import { createResource } from '../api/resource'
import { Async, Badge, Dialog, ExternalLink, formatBytes, formatDate } from '../components'
import type { Attachment, ScreenshotList } from './report-types'
import { reportsApi } from './reports-api'

/** The screenshot, small in the page and full size in a dialog. */
export function Screenshot({ url, title }: { url: string; title: string }) {
  const [open, setOpen] = useState(false)
  return (
    <div class="report-screenshot">
      <h3>Screenshot</h3>
      <button type="button" class="screenshot-thumb" onClick={() => setOpen(true)} aria-label="View the screenshot full size">
        <img src={url} alt={`Screenshot of report: ${title}`} loading="lazy" />
      </button>
      <Dialog open={open} title="Screenshot" onClose={() => setOpen(false)} wide>
        <img class="screenshot-full" src={url} alt={`Screenshot of report: ${title}, full size`} />
        <p>
          <ExternalLink href={url}>Open the original</ExternalLink>
        </p>
      </Dialog>
    </div>
  )
}

type ScreenshotItem = ScreenshotList['screenshots'][number]

type FileItem = Pick<Attachment, 'id' | 'file_name' | 'file_size' | 'mime_type' | 'file_url'>

/** What a file is to a triager: crash reporters' minidumps and view hierarchies are named as such; pictures and videos show. */
export function fileKind(f: Pick<FileItem, 'file_name' | 'mime_type'>): 'minidump' | 'view hierarchy' | 'image' | 'video' | 'file' {
  if (f.mime_type === 'application/x-minidump') return 'minidump'
  if (/view[-_ ]?hierarchy/i.test(f.file_name)) return 'view hierarchy'
  if (f.mime_type?.startsWith('image/')) return 'image'
  if (f.mime_type?.startsWith('video/')) return 'video'
  return 'file'
}

const KIND_LABEL = { minidump: 'Minidump', 'view hierarchy': 'View hierarchy' } as const

/** Files as a list: images and videos shown inline, everything else (minidumps, view hierarchies, logs) as a download link. */
export function FileList({ files }: { files: FileItem[] }) {
  return (
    <ul class="attachment-list">
      {files.map((a) => {
        const kind = fileKind(a)
        return (
          <li key={a.id}>
            {kind === 'image' && <img src={a.file_url} alt={a.file_name} loading="lazy" class="attachment-image" />}
            {kind === 'video' && (
              <video src={a.file_url} controls preload="metadata" class="attachment-video" aria-label={a.file_name}>
                <track kind="captions" />
              </video>
            )}
            {(kind === 'minidump' || kind === 'view hierarchy') && <Badge tone="info">{KIND_LABEL[kind]}</Badge>}{' '}
            <a href={a.file_url} download={a.file_name} data-native="">
              {kind === 'minidump' || kind === 'view hierarchy' ? `Download ${a.file_name}` : a.file_name}
            </a>{' '}
            <span class="muted">({formatBytes(a.file_size)})</span>
          </li>
        )
      })}
    </ul>
  )
}

/** One occurrence's screenshot in the Attachments box: the picture, and when, where and from whom it came. */
function ScreenshotFigure({ shot }: { shot: ScreenshotItem }) {
  const from = [formatDate(shot.created_at), shot.game_version, shot.platform, shot.player].filter(Boolean).join(' · ')
  return (
    <li>
      <figure class="attachment-screenshot">
        <a href={shot.url} data-native="">
          <img src={shot.url} alt={`Screenshot of the occurrence of ${formatDate(shot.created_at)}`} loading="lazy" class="attachment-image" />
        </a>
        <figcaption class="muted">{from}</figcaption>
      </figure>
    </li>
  )
}

/**
 * Every file of the report, from all its occurrences: each occurrence's screenshot (the newest 50,
 * with the total) and the attached files; seen by the team only (the public pages never list them).
 */
export function Attachments({ slug, number, version }: { slug: string; number: number; version: number }) {
  const media = useMemo(
    () =>
      createResource(async (signal) => {
        const [files, shots] = await Promise.all([reportsApi.attachments(slug, number, signal), reportsApi.screenshots(slug, number, signal)])
        return { files, shots }
      }),
    [slug, number],
  )
  useEffect(() => void media.reload(), [media, version])
  return (
    <section class="card report-attachments" aria-labelledby="attachments-title">
      <h2 id="attachments-title">Attachments</h2>
      <Async resource={media} label="Loading attachments…" isEmpty={(m) => m.files.length === 0 && m.shots.total === 0} empty={<p class="muted">No attachments.</p>}>
        {({ files, shots }) => (
          <>
            {shots.total > 0 && (
              <>
                <h3>
                  Screenshots ({shots.total}){shots.total > shots.screenshots.length && <span class="muted"> · the newest {shots.screenshots.length} shown</span>}
                </h3>
                <ul class="attachment-list screenshot-grid" aria-label="Screenshots of the occurrences">
                  {shots.screenshots.map((shot) => (
                    <ScreenshotFigure key={shot.occurrence_id} shot={shot} />
                  ))}
                </ul>
              </>
            )}
            {files.length > 0 && (
              <>
                {shots.total > 0 && <h3>Files</h3>}
                <FileList files={files} />
              </>
            )}
          </>
        )}
      </Async>
    </section>
  )
}
