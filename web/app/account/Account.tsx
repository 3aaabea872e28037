import { useState } from 'preact/hooks'
import { api } from '../api/client'
import type { ChangePasswordBody, Me, ProfileBody, ProfileRole, Theme } from '../api/types'
import { PROFILE_ROLES } from '../api/types'
import { Button, ConfirmDialog, FormError, Page, Section, Select, Spinner, TextField, formatDate, toast, useAction } from '../components'
import { applyTheme, me, signOut } from '../session'
import { ApiTokens } from './ApiTokens'
import { changedFields } from '../settings/forms'
import { NotificationPreferencesForm } from '../settings/Notifications'

const ROLE_LABELS: Record<ProfileRole, string> = {
  developer: 'Developer',
  designer: 'Designer',
  qa: 'QA',
  producer: 'Producer',
  community_manager: 'Community manager',
  player: 'Player',
}

/** `/account`: profile, password, notifications, API tokens, export, sign out and deletion. */
export function AccountPage() {
  const user = me.value
  if (!user) return <Spinner />
  return (
    <Page title="Your account" subtitle={<>Signed in as {user.email} since {formatDate(user.created_at, false)}.</>} actions={<Button onClick={() => void signOut()}>Sign out</Button>}>
      <Profile user={user} />
      {user.has_password ? <ChangePassword /> : null}
      <NotificationPreferencesForm />
      <ApiTokens />
      <DataSection />
    </Page>
  )
}

type ProfileForm = { display_name: string; avatar_url: string; theme: string; role: string }
const profileForm = (u: Me): ProfileForm => ({ display_name: u.display_name ?? '', avatar_url: u.avatar_url ?? '', theme: u.theme ?? '', role: u.role ?? '' })

function Profile({ user }: { user: Me }) {
  const [form, setForm] = useState<ProfileForm>(() => profileForm(user))
  const changes = changedFields(profileForm(user), form)
  const set = (k: keyof ProfileForm) => (v: string) => {
    setForm((f) => ({ ...f, [k]: v }))
    if (k === 'theme') applyTheme((v || null) as Theme | null)
  }
  const { busy, error, onSubmit } = useAction(async () => {
    const body: ProfileBody = {}
    if (changes.display_name !== undefined) body.display_name = form.display_name.trim()
    if (changes.avatar_url !== undefined) body.avatar_url = form.avatar_url.trim()
    if (changes.theme !== undefined && form.theme) body.theme = form.theme as Theme
    if (changes.role !== undefined && form.role) body.role = form.role as ProfileRole
    await api.patch('/auth/profile', body)
    me.value = await api.get<Me>('/auth/me')
    applyTheme(me.value.theme)
    toast('Profile saved')
  })
  return (
    <Section title="Profile" description="How teammates see you, and the dashboard's theme.">
      <form class="stack" onSubmit={onSubmit}>
        <div class="grid-2">
          <TextField label="Display name" maxLength={100} placeholder={user.name} value={form.display_name} onValue={set('display_name')} />
          <TextField label="Avatar URL" type="url" placeholder="https://" value={form.avatar_url} onValue={set('avatar_url')} />
          <Select
            label="Theme"
            value={form.theme}
            onValue={set('theme')}
            options={[{ value: '', label: 'System default', disabled: Boolean(user.theme) }, { value: 'light', label: 'Light' }, { value: 'dark', label: 'Dark' }]}
          />
          <Select
            label="Your role"
            value={form.role}
            onValue={set('role')}
            options={[{ value: '', label: 'Not set', disabled: Boolean(user.role) }, ...PROFILE_ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }))]}
          />
        </div>
        <FormError error={error} />
        <div>
          <Button type="submit" variant="primary" busy={busy} disabled={Object.keys(changes).length === 0}>
            Save profile
          </Button>
        </div>
      </form>
    </Section>
  )
}

function ChangePassword() {
  const [current, setCurrent] = useState('')
  const [next, setNext] = useState('')
  const { busy, error, onSubmit } = useAction(async () => {
    const body: ChangePasswordBody = { current_password: current, new_password: next }
    await api.post('/auth/change-password', body, { redirectOn401: false })
    setCurrent('')
    setNext('')
    toast('Password changed')
  })
  return (
    <Section title="Password">
      <form class="stack narrow" onSubmit={onSubmit}>
        <TextField label="Current password" type="password" autoComplete="current-password" required value={current} onValue={setCurrent} />
        <TextField label="New password" type="password" autoComplete="new-password" required minLength={8} hint="At least 8 characters." value={next} onValue={setNext} />
        <FormError error={error} />
        <div>
          <Button type="submit" variant="primary" busy={busy} disabled={!current || next.length < 8}>
            Change password
          </Button>
        </div>
      </form>
    </Section>
  )
}

function DataSection() {
  const [deleting, setDeleting] = useState(false)
  const exportData = useAction(
    async () => {
      const data = await api.get<unknown>('/account/export')
      const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' })
      const url = URL.createObjectURL(blob)
      const a = document.createElement('a')
      a.href = url
      a.download = `glitchbox-export-${new Date().toISOString().slice(0, 10)}.json`
      a.dataset.native = ''
      document.body.append(a)
      a.click()
      a.remove()
      setTimeout(() => URL.revokeObjectURL(url), 1000)
      toast('Export downloaded')
    },
    { toastErrors: true },
  )
  return (
    <Section title="Your data">
      <div class="stack">
        <div class="spread">
          <p class="muted" style="margin:0">
            Download your profile, projects, reports and comments as JSON.
          </p>
          <Button onClick={exportData.run} busy={exportData.busy}>
            Export my data
          </Button>
        </div>
        <div class="spread">
          <p class="muted" style="margin:0">
            Deleting your account signs you out everywhere and cancels a subscription you pay for. It cannot be undone.
          </p>
          <Button variant="danger" onClick={() => setDeleting(true)}>
            Delete my account
          </Button>
        </div>
      </div>
      <ConfirmDialog
        open={deleting}
        title="Delete your account?"
        message="Your account is deleted with the projects of the team you own. This cannot be undone."
        confirmLabel="Delete my account"
        typed="DELETE"
        onClose={() => setDeleting(false)}
        onConfirm={async () => {
          await api.delete('/auth/account', { confirmation: 'DELETE' })
          me.value = null
          window.location.assign('/login')
        }}
      />
    </Section>
  )
}
