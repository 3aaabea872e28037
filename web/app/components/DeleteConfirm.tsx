import type { ComponentChildren } from 'preact'
import { api } from '../api/client'
import { ConfirmDialog } from './Dialog'
import { toast } from './Toast'

/**
 * Asks before deleting one row of a list, so that list screens do not each repeat the same delete: open while
 * `item` is set, DELETE `${collection}/${item.id}`, the `deleted` toast, then `onDeleted` (reload the list).
 */
export function DeleteConfirm<T extends { id: string }>({
  item,
  collection,
  title,
  message,
  confirmLabel,
  deleted,
  onClose,
  onDeleted,
}: {
  item: T | null
  collection: string
  title: string
  message: ComponentChildren
  confirmLabel: string
  deleted: string
  onClose: () => void
  onDeleted: () => unknown
}) {
  return (
    <ConfirmDialog
      open={item !== null}
      title={title}
      message={message}
      confirmLabel={confirmLabel}
      onClose={onClose}
      onConfirm={async () => {
        await api.delete(`${collection}/${encodeURIComponent(item!.id)}`)
        toast(deleted)
        await onDeleted()
      }}
    />
  )
}
