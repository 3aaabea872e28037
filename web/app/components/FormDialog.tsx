import type { ComponentChildren } from 'preact'
import { Dialog } from './Dialog'

/**
 * A dialog holding an add or edit form, so that list screens do not each repeat the same wiring: the form is
 * built only while the dialog is open (fresh each time), and the `done` it is given closes the dialog and then
 * calls `onDone` (reload the list behind it).
 */
export function FormDialog({
  open,
  title,
  wide,
  onClose,
  onDone,
  children,
}: {
  open: boolean
  title: string
  wide?: boolean
  onClose: () => void
  onDone: () => unknown
  children: (done: () => void) => ComponentChildren
}) {
  const done = () => {
    onClose()
    void onDone()
  }
  return (
    <Dialog open={open} title={title} onClose={onClose} wide={wide}>
      {open && children(done)}
    </Dialog>
  )
}
