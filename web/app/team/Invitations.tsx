import { useState } from 'preact/hooks'
import { api } from '../api/client'
import type { Account, CreatedInvite, Invitation, ProjectAccess } from '../api/types'
import { Button, CodeBlock, FormError, Section, Select, Table, TextField, formatDate, toast, useAction } from '../components'
import { deniedReason } from '../session'
import { inviteLink } from './matrix'
import { accessLabel, accessProblem } from './project-access'
import { ProjectAccessPicker } from './ProjectAccess'
import { ROLE_OPTIONS } from './roles'

/** Invite by email (with the role and the projects the invitee will see), and the pending invitations. */
export function Invitations({ account, onChanged, onRevoke }: { account: Account; onChanged: () => void; onRevoke: (i: Invitation) => void }) {
  const [email, setEmail] = useState('')
  const [role, setRole] = useState('member')
  // An inviter who sees only some projects invites into those: their own list is the starting choice.
  const mine = account.your_project_access
  const [access, setAccess] = useState<ProjectAccess>(mine)
  const [created, setCreated] = useState<CreatedInvite | null>(null)
  const reason = deniedReason('team.invite')
  const { busy, error, onSubmit } = useAction(async () => {
    const inv = await api.post<CreatedInvite>('/account/invites', { email: email.trim(), role, ...(role === 'member' ? { project_access: access } : {}) })
    setCreated(inv)
    setEmail('')
    toast(`Invitation sent to ${inv.email}`)
    onChanged()
  })
  return (
    <Section title="Invitations" description="Invitations are emailed and expire after 7 days. Each pending invitation takes a seat.">
      <form class="row" onSubmit={onSubmit} style="align-items:flex-end">
        <div style="flex:2;min-width:14rem">
          <TextField label="Email to invite" type="email" required value={email} onValue={setEmail} disabled={Boolean(reason)} />
        </div>
        <div style="flex:1;min-width:9rem">
          <Select label="Invite as" value={role} onValue={setRole} options={ROLE_OPTIONS} disabled={Boolean(reason) || account.your_role === 'member'} />
        </div>
        <Button type="submit" variant="primary" busy={busy} disabled={!email.trim()} reason={reason ?? (role === 'member' ? accessProblem(access) : undefined)}>
          Send invitation
        </Button>
      </form>
      {!reason && (
        <div style="margin-top:0.75rem">
          {role === 'member' ? <ProjectAccessPicker value={access} onValue={setAccess} projects={account.projects} allowAll={mine === 'all'} /> : <p class="small muted">Admins see every project.</p>}
        </div>
      )}
      <FormError error={error} style="margin-top:0.75rem" />
      {created && (
        <div class="stack" style="margin-top:0.75rem">
          <p class="small muted">You can also send this link to {created.email} yourself:</p>
          <CodeBlock label="invitation link" code={inviteLink(window.location.origin, created.token)} />
        </div>
      )}
      <div style="margin-top:1rem">
        {account.pending_invitations.length === 0 ? (
          <p class="muted">No pending invitations.</p>
        ) : (
          <Table<Invitation>
            caption="Pending invitations"
            showCaption
            rows={account.pending_invitations}
            rowKey={(i) => i.id}
            columns={[
              { key: 'email', header: 'Email', render: (i) => i.email },
              { key: 'role', header: 'Role', render: (i) => i.role },
              { key: 'projects', header: 'Projects', render: (i) => accessLabel(i.project_access, account.projects) },
              { key: 'expires', header: 'Expires', render: (i) => formatDate(i.expires_at) },
              {
                key: 'actions',
                header: <span class="sr-only">Actions</span>,
                render: (i) => (
                  <Button size="sm" variant="danger" onClick={() => onRevoke(i)} reason={reason} aria-label={`Revoke the invitation of ${i.email}`}>
                    Revoke
                  </Button>
                ),
              },
            ]}
          />
        )}
      </div>
    </Section>
  )
}
