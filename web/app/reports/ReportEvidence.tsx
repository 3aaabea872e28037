import type { ComponentChildren } from 'preact'
import { Badge, formatDate, Spinner } from '../components'
import { splitDescription } from './description-sections'
import { Linkified } from './Linkified'
import { clientText, ago } from './report-summary'
import type { Occurrence, ReportDetail } from './report-types'
import { MissingSymbols } from './MissingSymbols'
import { OtherThreads } from './OtherThreads'
import { FileList, Screenshot } from './ReportMedia'
import { CodeText, StackTrace } from './StackTrace'

/** Which occurrence the evidence shows: the latest (default), the first, or one picked in the table. */
export type Chosen = { kind: 'latest' } | { kind: 'first' } | { kind: 'picked'; occurrence: Occurrence }

/** True when a minidump crash's metadata says its frames are not symbolicated (module + offset only). */
export function notSymbolicated(metadata: unknown): boolean {
  const dump = (metadata as { minidump?: { symbolicated?: unknown } } | null)?.minidump
  return typeof dump === 'object' && dump !== null && dump.symbolicated === false
}

function Switcher({ chosen, count, onChoose }: { chosen: Chosen; count: number; onChoose: (c: Chosen) => void }) {
  if (count < 2) return <span class="muted small">The only occurrence</span>
  const option = (kind: 'latest' | 'first', text: string) => (
    <button type="button" class="segment" aria-pressed={chosen.kind === kind} onClick={() => onChoose({ kind })}>
      {text}
    </button>
  )
  return (
    <div class="segmented" role="group" aria-label="Occurrence shown">
      {option('latest', 'Latest')}
      {option('first', 'First')}
      {chosen.kind === 'picked' && (
        <button type="button" class="segment" aria-pressed="true">
          Picked: {formatDate(chosen.occurrence.created_at)}
        </button>
      )}
    </div>
  )
}

/**
 * The evidence of one occurrence, first on the page: when, which version and platform, the device
 * and player, the client that sent it; a native crash's modules without symbols (with the upload
 * command for project `slug`), its stack trace (the game's frames in bold, the rest folded) and other
 * threads (folded), recent logs, screenshot and files. Its own message shows when it differs from the
 * report's text.
 */
export function ReportEvidence({
  slug,
  bug,
  occurrence,
  failed,
  chosen,
  onChoose,
}: {
  slug: string
  bug: ReportDetail['bug']
  occurrence: Occurrence | undefined
  failed: string | undefined
  chosen: Chosen
  onChoose: (c: Chosen) => void
}) {
  const o = occurrence
  const own = o ? splitDescription(o.description) : null
  const reportText = splitDescription(bug.description).text
  const screenshot = o?.screenshot_url ?? (bug.occurrence_count <= 1 ? bug.screenshot_url : null)
  const facts: [string, ComponentChildren][] = o
    ? [
        [
          'When',
          <time dateTime={o.created_at} title={formatDate(o.created_at)}>
            {ago(o.created_at, Date.now())}
          </time>,
        ],
        ['Version', o.game_version],
        ['Environment', o.environment],
        ['Platform', o.platform],
        ['Runtime', o.runtime],
        ['Browser', o.browser],
        ['Device', o.device_info],
        ['OS', o.os_info],
        ['Player', o.reporter_name ?? o.player_id],
        ['Sent', clientText(o.client)],
      ]
    : []
  return (
    <section class="card report-evidence" aria-labelledby="evidence-title">
      <div class="spread">
        <h2 id="evidence-title">Evidence</h2>
        <Switcher chosen={chosen} count={bug.occurrence_count} onChoose={onChoose} />
      </div>
      {!o ? (
        failed ? (
          <p class="field-error" role="alert">
            {failed}
          </p>
        ) : (
          <Spinner label="Loading the occurrence…" />
        )
      ) : (
        <>
          <dl class="facts">
            {facts
              .filter(([, v]) => v !== null && v !== '' && v !== undefined)
              .map(([k, v]) => (
                // A player id (a 17-digit Steam id) takes two columns rather than breaking in the middle.
                <div key={k} class={k === 'Player' ? 'fact-wide' : undefined}>
                  <dt>{k}</dt>
                  <dd>{v}</dd>
                </div>
              ))}
          </dl>
          {notSymbolicated(o.metadata) && (
            <p class="notice">
              <Badge tone="warning">Not symbolicated yet</Badge> A native crash whose minidump this project's symbols could not name: frames read from it are a module and an offset. Download the minidump below to open it in a debugger.
            </p>
          )}
          {o.title && o.title !== bug.title && (
            <p class="small">
              <span class="muted">Sent as</span> {o.title}
            </p>
          )}
          {own!.text && own!.text !== reportText && (
            <div class="prewrap occurrence-text">
              <Linkified text={own!.text} />
            </div>
          )}
          <MissingSymbols slug={slug} metadata={o.metadata} />
          {own!.stackTrace !== null && <StackTrace text={own!.stackTrace} />}
          {own!.otherThreads && <OtherThreads text={own!.otherThreads} />}
          {own!.recentLogs !== null && (
            <>
              <h3>Recent logs</h3>
              <CodeText label="Recent logs">{own!.recentLogs || '(empty)'}</CodeText>
            </>
          )}
          {screenshot && <Screenshot url={screenshot} title={bug.title} />}
          {o.attachments.length > 0 && (
            <>
              <h3>Files sent with it</h3>
              <FileList files={o.attachments} />
            </>
          )}
        </>
      )}
    </section>
  )
}
