// Entry point of the scoring thread (see scoring.ts): sentiment and possible duplicates of reports
// answered from the SDK inbox, computed beside the request thread. It reads through its own
// read-only connection to the server's SQLite file (WAL: it never blocks the writer).
import { openSqlite } from '../../db/client'
import { similarOpenTitlesQuery } from './duplicates'
import { type ScoringMessage, type ScoringReply, scoreInline } from './scoring'

declare const self: Worker

let index: { similarOpenTitles: ReturnType<typeof similarOpenTitlesQuery> } | null = null

self.onmessage = (event: MessageEvent<ScoringMessage>) => {
  const msg = event.data
  if (msg.type === 'open') {
    try {
      index = { similarOpenTitles: similarOpenTitlesQuery(openSqlite(msg.dbFile, { readonly: true })) }
      self.postMessage({ type: 'ready' } satisfies ScoringReply)
    } catch (err) {
      self.postMessage({ type: 'failed', error: String(err) } satisfies ScoringReply)
    }
    return
  }
  try {
    // The same function the request thread falls back on, over this thread's connection.
    const { sentiment, possibleDuplicates } = scoreInline(index!, msg)
    self.postMessage({ type: 'scored', id: msg.id, sentiment, possibleDuplicates } satisfies ScoringReply)
  } catch (err) {
    // The request thread scores this one itself.
    self.postMessage({ type: 'scored', id: msg.id, error: String(err) } satisfies ScoringReply)
  }
}
