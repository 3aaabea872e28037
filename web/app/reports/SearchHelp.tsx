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
        <p class="muted">Upper and lower case do not matter; other characters and operators are searched as plain text.</p>
      </div>
    </details>
  )
}
