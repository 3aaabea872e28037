import { useId, useState } from 'preact/hooks'
import { api } from '../api/client'
import type { Member, ProjectAccess } from '../api/types'
import { Button, Checkbox, FormError, toast, useAction } from '../components'
import { accessProblem, toggled } from './project-access'

type Named = { id: string; name: string }

/**
 * Which projects someone sees: every project of the account (new ones included), or only the chosen ones.
 * Without `allowAll` (an inviter who sees only some projects) the choice is among the listed ones only.
 */
export function ProjectAccessPicker({ value, onValue, projects, allowAll = true }: { value: ProjectAccess; onValue: (v: ProjectAccess) => void; projects: readonly Named[]; allowAll?: boolean }) {
  const name = useId()
  const limited = value !== 'all'
  return (
    <fieldset class="access-picker">
      <legend>Projects they see</legend>
      <div class="stack" style="gap:0.5rem">
        {allowAll && (
          <>
            <label class="check">
              <input type="radio" name={name} checked={!limited} onChange={() => onValue('all')} />
              <span>All projects, including new ones</span>
            </label>
            <label class="check">
              <input type="radio" name={name} checked={limited} onChange={() => onValue([])} />
              <span>Only the projects chosen below</span>
            </label>
          </>
        )}
        <div class="stack access-projects" style="gap:0.35rem">
          {projects.map((p) => (
            <Checkbox key={p.id} label={p.name} checked={limited && value.includes(p.id)} disabled={!limited} onChecked={(on) => onValue(toggled(value, p.id, on))} />
          ))}
        </div>
        <p class="small muted">A member sees nothing of the other projects: no page, report or mail. Their permissions apply inside the projects they see.</p>
      </div>
    </fieldset>
  )
}

/** The dialog body that sets a member's project access (owners and admins). */
export function ProjectAccessForm({ member, projects, onDone }: { member: Member; projects: readonly Named[]; onDone: () => void }) {
  const [access, setAccess] = useState<ProjectAccess>(member.project_access)
  const { busy, error, run } = useAction(async () => {
    await api.patch(`/account/members/${encodeURIComponent(member.user_id)}`, { project_access: access })
    toast(access === 'all' ? `${member.name || member.email} now sees every project` : `${member.name || member.email} now sees ${access.length} project${access.length === 1 ? '' : 's'}`)
    onDone()
  })
  return (
    <div class="stack">
      <ProjectAccessPicker value={access} onValue={setAccess} projects={projects} />
      <FormError error={error} />
      <div class="row" style="justify-content:flex-end">
        <Button variant="primary" onClick={() => run()} busy={busy} reason={accessProblem(access)}>
          Save projects
        </Button>
      </div>
    </div>
  )
}
