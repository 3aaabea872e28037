import { Badge } from '../components'

/** A report's or event's client severity and whether it was handled: "fatal", "unhandled" read as a crash, a handled error as an error. */
export function Severity({ level, handled }: { level?: string; handled?: boolean }) {
  return (
    <>
      {level && <Badge tone={level === 'fatal' ? 'danger' : 'neutral'}>{level}</Badge>}
      {handled === false && <Badge tone="danger">unhandled</Badge>}
      {handled === true && <Badge>handled</Badge>}
    </>
  )
}
