import type { ComponentChildren } from 'preact'

export type Column<T> = { key: string; header: ComponentChildren; render: (row: T) => ComponentChildren; class?: string }

/** A data table with a caption (visually hidden unless `showCaption`), scrollable on narrow screens. */
export function Table<T>({ caption, columns, rows, rowKey, showCaption }: { caption: string; columns: Column<T>[]; rows: T[]; rowKey: (row: T) => string; showCaption?: boolean }) {
  return (
    <div class="table-wrap">
      <table class="table">
        <caption class={showCaption ? '' : 'sr-only'}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} scope="col" class={c.class}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((c) => (
                <td key={c.key} class={c.class}>
                  {c.render(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
