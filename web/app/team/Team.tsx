import { useState } from 'preact/hooks'
import { api, messageOf } from '../api/client'
import { useApi } from '../api/resource'
import type { Account, AccountRole, Invitation, Member, MemberPermissions, PermissionCatalog, PermissionMap } from '../api/types'
import { Async, Badge, Button, Checkbox, ConfirmDialog, DeleteConfirm, Dialog, EmptyState, FormError, Page, Section, Spinner, Table, TextField, UsageBar, formatDate, toast, useAction } from '../components'
import { can, loadPermissions, me, showPlans } from '../session'
import { Invitations } from './Invitations'
import { overridesFor, permissionsEditable } from './matrix'
import { accessLabel } from './project-access'
import { ProjectAccessForm } from './ProjectAccess'
import { ROLE_OPTIONS } from './roles'


/** `/team`: the account's name, members and roles, invitations, and each member's permissions. */
export function Team() {
  const account = useApi<Account>('/account')
  return (
    <Page title="Team" subtitle="Members see every project of the account unless an owner or admin limits them to chosen projects. Roles and permissions apply inside the projects a member sees.">
      <Async resource={account}>{(a) => <TeamView account={a} reload={() => void account.reload()} />}</Async>
    </Page>
  )
}

function TeamView({ account, reload }: { account: Account; reload: () => void }) {
  const myRole = account.your_role
  const myId = me.value?.id
  const manager = myRole === 'owner' || myRole === 'admin'
  const [removing, setRemoving] = useState<Member | null>(null)
  const [revoking, setRevoking] = useState<Invitation | null>(null)
  const [editing, setEditing] = useState<Member | null>(null)
  const [scoping, setScoping] = useState<Member | null>(null)

  const changeRole = async (m: Member, role: string) => {
    try {
      await api.patch(`/account/members/${encodeURIComponent(m.user_id)}`, { role })
      toast(`${m.name || m.email} is now ${role === 'admin' ? 'an admin, who sees every project' : 'a member'}`)
      reload()
    } catch (err) {
      toast(messageOf(err), 'error')
    }
  }

  return (
    <>
      <AccountName account={account} onSaved={reload} />
      <Section title="Members">
        <div class="narrow" style={{ marginBottom: '0.75rem' }}>
          <UsageBar label="Seats" used={account.usage.seats} limit={account.limits.seats} />
        </div>
        <Table<Member>
          caption="Members"
          rows={account.members}
          rowKey={(m) => m.user_id}
          columns={[
            {
              key: 'who',
              header: 'Member',
              render: (m) => (
                <div>
                  <strong>{m.name || m.email}</strong> {m.user_id === myId && <Badge tone="info">you</Badge>}
                  <div class="small muted">{m.email}</div>
                </div>
              ),
            },
            {
              key: 'role',
              header: 'Role',
              render: (m) =>
                m.role === 'owner' || !manager || m.user_id === myId || (m.role === 'admin' && myRole !== 'owner') ? (
                  <Badge tone={m.role === 'owner' ? 'success' : m.role === 'admin' ? 'info' : 'neutral'}>{m.role}</Badge>
                ) : (
                  <label class="sr-only-wrap">
                    <span class="sr-only">Role of {m.name || m.email}</span>
                    <select value={m.role} onChange={(e) => void changeRole(m, e.currentTarget.value)}>
                      {ROLE_OPTIONS.map((o) => (
                        <option key={o.value} value={o.value}>
                          {o.label}
                        </option>
                      ))}
                    </select>
                  </label>
                ),
            },
            { key: 'projects', header: 'Projects', render: (m) => accessLabel(m.project_access, account.projects) },
            { key: 'joined', header: 'Joined', render: (m) => formatDate(m.joined_at, false) },
            {
              key: 'actions',
              header: <span class="sr-only">Actions</span>,
              render: (m) => {
                const why = permissionsEditable(myRole, m.role, can('team.permissions'), m.user_id === myId)
                return (
                  <div class="row" style="gap:0.35rem">
                    <Button size="sm" onClick={() => setEditing(m)} reason={why} aria-label={`Permissions of ${m.name || m.email}`}>
                      Permissions
                    </Button>
                    {manager && m.role === 'member' && (
                      <Button size="sm" onClick={() => setScoping(m)} aria-label={`Projects of ${m.name || m.email}`}>
                        Projects
                      </Button>
                    )}
                    {m.role !== 'owner' && (m.user_id === myId || manager) && (
                      <Button size="sm" variant="danger" onClick={() => setRemoving(m)} aria-label={m.user_id === myId ? 'Leave the account' : `Remove ${m.name || m.email}`}>
                        {m.user_id === myId ? 'Leave' : 'Remove'}
                      </Button>
                    )}
                  </div>
                )
              },
            },
          ]}
        />
      </Section>
      <Invitations account={account} onChanged={reload} onRevoke={setRevoking} />
      <ConfirmDialog
        open={removing !== null}
        title={removing?.user_id === myId ? 'Leave this account?' : `Remove ${removing?.name || removing?.email}?`}
        message={removing?.user_id === myId ? 'You lose access to all its projects.' : 'They lose access to every project of the account.'}
        confirmLabel={removing?.user_id === myId ? 'Leave account' : 'Remove member'}
        onClose={() => setRemoving(null)}
        onConfirm={async () => {
          await api.delete(`/account/members/${encodeURIComponent(removing!.user_id)}`)
          if (removing!.user_id === myId) {
            window.location.assign('/')
            return
          }
          toast('Member removed')
          reload()
        }}
      />
      <DeleteConfirm
        item={revoking}
        collection="/account/invites"
        title="Revoke this invitation?"
        message={<>The link sent to {revoking?.email} stops working.</>}
        confirmLabel="Revoke invitation"
        deleted="Invitation revoked"
        onClose={() => setRevoking(null)}
        onDeleted={reload}
      />
      <Dialog open={scoping !== null} title={`Projects of ${scoping?.name || scoping?.email || ''}`} onClose={() => setScoping(null)}>
        {scoping && (
          <ProjectAccessForm
            member={scoping}
            projects={account.projects}
            onDone={() => {
              setScoping(null)
              reload()
            }}
          />
        )}
      </Dialog>
      <Dialog open={editing !== null} title={`Permissions of ${editing?.name || editing?.email || ''}`} onClose={() => setEditing(null)} wide>
        {editing && (
          <PermissionMatrix
            member={editing}
            onDone={() => {
              setEditing(null)
              if (editing.user_id === myId) void loadPermissions()
            }}
          />
        )}
      </Dialog>
    </>
  )
}

function AccountName({ account, onSaved }: { account: Account; onSaved: () => void }) {
  const [name, setName] = useState(account.name)
  const mayRename = account.your_role === 'owner' || account.your_role === 'admin'
  const { busy, onSubmit } = useAction(
    async () => {
      await api.patch('/account', { name: name.trim() })
      toast('Account renamed')
      onSaved()
    },
    { toastErrors: true },
  )
  return (
    <Section title="Account" description={<>{showPlans.value && `Plan: ${account.plan.name}. `}Your role: {account.your_role}.</>}>
      <form class="row" onSubmit={onSubmit} style="align-items:flex-end">
        <div style="flex:1;min-width:14rem">
          <TextField label="Account name" maxLength={100} value={name} onValue={setName} disabled={!mayRename} />
        </div>
        <Button type="submit" busy={busy} disabled={name.trim() === account.name || !name.trim()} reason={mayRename ? undefined : 'Only the owner or an admin renames the account.'}>
          Rename
        </Button>
      </form>
    </Section>
  )
}

/** The member's permissions, one checkbox per key of the catalog, grouped; saved as overrides of the role's defaults. */
function PermissionMatrix({ member, onDone }: { member: Member; onDone: () => void }) {
  const catalog = useApi<PermissionCatalog>('/permissions/available')
  const current = useApi<MemberPermissions>(`/account/members/${encodeURIComponent(member.user_id)}/permissions`)
  const c = catalog.data.value
  const p = current.data.value
  if (catalog.error.value || current.error.value) return <EmptyState title="Could not load the permissions">{(catalog.error.value ?? current.error.value)!.message}</EmptyState>
  if (!c || !p) return <Spinner />
  return <MatrixForm member={member} catalog={c} current={p} onDone={onDone} />
}

function MatrixForm({ member, catalog, current, onDone }: { member: Member; catalog: PermissionCatalog; current: MemberPermissions; onDone: () => void }) {
  const [wanted, setWanted] = useState<PermissionMap>(current.permissions)
  const role = current.role as AccountRole
  const defaults = catalog.role_defaults[role] ?? {}
  const path = `/account/members/${encodeURIComponent(member.user_id)}/permissions`
  // Saving and resetting share one busy flag and one message: both end the dialog.
  const { busy, error, run } = useAction(async (reset: boolean) => {
    if (reset) await api.delete(path)
    else await api.put(path, { permissions: overridesFor(wanted, defaults), reset: true })
    toast(reset ? 'Permissions reset to the role defaults' : 'Permissions saved')
    onDone()
  })
  return (
    <div class="stack">
      <p class="muted">
        Role: <strong>{role}</strong>. A checkbox that differs from the role's default is saved as an override (marked “changed”).
      </p>
      <div class="grid-2">
        {catalog.groups.map((g) => (
          <fieldset key={g.key}>
            <legend>{g.name}</legend>
            <div class="stack" style="gap:0.5rem">
              {g.permissions.map((perm) => (
                <Checkbox
                  key={perm.key}
                  label={
                    <>
                      {perm.name} {Boolean(wanted[perm.key]) !== Boolean(defaults[perm.key]) && <Badge tone="warning">changed</Badge>}
                    </>
                  }
                  hint={perm.description}
                  checked={Boolean(wanted[perm.key])}
                  onChecked={(on) => setWanted((w) => ({ ...w, [perm.key]: on }))}
                />
              ))}
            </div>
          </fieldset>
        ))}
      </div>
      <FormError error={error} />
      <div class="row" style="justify-content:flex-end">
        <Button onClick={() => run(true)} busy={busy}>
          Reset to role defaults
        </Button>
        <Button variant="primary" onClick={() => run(false)} busy={busy}>
          Save permissions
        </Button>
      </div>
    </div>
  )
}
