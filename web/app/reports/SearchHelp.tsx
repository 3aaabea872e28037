/** The search syntax, explained beside the search box (a disclosure: keyboard and screen-reader friendly). */
export function SearchHelp() {
  return (
    <details
      class="search-help"
      onKeyDown={(e) => {
        if (e.key === 'Escape' && e.currentTarget.open) {
          e.currentTarget.open = false
          e.currentTarget.querySelector('summary')?.focus()
        }
      }}
    >
      <summary>Search syntax</summary>
      <div class="search-help-body" role="note" aria-label="Search syntax">
        <p>Searches titles and descriptions. Every word must match, unless two are joined by OR.</p>
        <dl>
          <dt>
            <code>save crash</code>
          </dt>
          <dd>both words, anywhere</dd>
          <dt>
            <code>"save file"</code>
          </dt>
          <dd>the exact phrase</dd>
          <dt>
            <code>crash -audio</code>
          </dt>
          <dd>leave out reports with a word (or a -"quoted phrase"); -words alone list the reports without them</dd>
          <dt>
            <code>load*</code>
          </dt>
          <dd>words starting with a prefix: load, loading, loader</dd>
          <dt>
            <code>freeze OR hang</code>
          </dt>
          <dd>either word or phrase (OR in capitals, between two of them)</dd>
        </dl>
        <p>Filters go beside the words; each must hold:</p>
        <dl>
          <dt>
            <code>version:1.3.0</code>
          </dt>
          <dd>reports with any event from that game version</dd>
          <dt>
            <code>platform:Linux</code>
          </dt>
          <dd>…from that platform (quote a name with spaces: <code>platform:"Steam Deck"</code>)</dd>
          <dt>
            <code>player:76561198…</code>
          </dt>
          <dd>…from that player (player or Steam id)</dd>
          <dt>
            <code>error:NullReferenceException</code>
          </dt>
          <dd>that error type, also inside a namespace (System.NullReferenceException)</dd>
          <dt>
            <code>fingerprint:…</code>
          </dt>
          <dd>every report of that grouping key</dd>
          <dt>
            <code>tag:map=caves</code>
          </dt>
          <dd>an event tagged so (Sentry tags, the SDK's custom fields; quote one with spaces: <code>tag:"gpu=RTX 3060"</code>)</dd>
          <dt>
            <code>is:unassigned</code>
          </dt>
          <dd>nobody is assigned</dd>
          <dt>
            <code>is:regression</code>
          </dt>
          <dd>a newer build brought it back after it was resolved</dd>
          <dt>
            <code>is:escalating</code>
          </dt>
          <dd>events in the last hour: at least 10, and over 3 times its hourly average of the day before</dd>
          <dt>
            <code>has:screenshot</code>
          </dt>
          <dd>an event came with a screenshot</dd>
        </dl>
        <p class="muted">Upper and lower case do not matter; other characters and operators are searched as plain text.</p>
      </div>
    </details>
  )
}
