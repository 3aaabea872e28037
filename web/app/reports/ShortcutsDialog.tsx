import { Dialog } from '../components'
import { describeKeys, type Shortcut } from './shortcuts'

/** The "?" dialog: every keyboard shortcut of the screen. */
export function ShortcutsDialog<A extends string>({ open, onClose, shortcuts }: { open: boolean; onClose: () => void; shortcuts: readonly Shortcut<A>[] }) {
  return (
    <Dialog open={open} title="Keyboard shortcuts" onClose={onClose}>
      <table class="table shortcuts-table">
        <caption class="sr-only">Keyboard shortcuts</caption>
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col">Action</th>
          </tr>
        </thead>
        <tbody>
          {shortcuts.map((s) => (
            <tr key={s.action}>
              <td>
                {s.keys.map((k, i) => (
                  <span key={k}>
                    {i > 0 && ' or '}
                    <kbd>{k}</kbd>
                  </span>
                ))}
              </td>
              <td>{s.description}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p class="muted">Shortcuts are off while you type in a field. {describeKeys(['Esc'])} closes a dialog.</p>
    </Dialog>
  )
}
