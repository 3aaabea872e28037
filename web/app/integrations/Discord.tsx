import { useState } from 'preact/hooks'
import { api, projectPath } from '../api/client'
import { useApi } from '../api/resource'
import type { Message } from '../api/types'
import { Button, Checkbox, ConfirmDialog, CopyButton, ErrorState, formatDate, Section, Spinner, TextArea, TextField, toast, useAction } from '../components'
import type { DiscordSettings, DiscordSettingsBody } from './types'

/** Snowflake ids typed one per line or separated by commas or spaces. */
const idsOf = (text: string) => text.split(/[\s,]+/).map((s) => s.trim()).filter(Boolean)

/**
 * The Discord card of the integrations screen: the application's ids, key and bot token, the reply
 * and abuse settings, "Register /report" with Discord's answer in words, and the Interactions
 * Endpoint URL to paste into the developer portal with the steps around it.
 */
export function DiscordSection({ slug, reason }: { slug: string; reason?: string }) {
  const base = projectPath(slug, '/discord')
  const discord = useApi<DiscordSettings>(base)
  const error = discord.error.value
  let body
  // A member without the Integrations permission (403) gets the form as every card shows it to them:
  // its controls disabled with the reason, never a refusal.
  if (error && error.status !== 404 && error.status !== 403) body = <ErrorState title="Could not load the Discord settings" message={error.message} onRetry={() => void discord.reload()} />
  else if (!error && !discord.data.value) body = <Spinner />
  else body = <DiscordForm key={discord.data.value?.application_id ?? 'new'} base={base} current={discord.data.value ?? null} reason={reason} onSaved={() => void discord.reload()} />
  return (
    <Section title="Discord /report" description="Players report bugs from your Discord server with /report: a form with a screenshot, filed here as a player report.">
      {body}
    </Section>
  )
}

function DiscordForm({ base, current, reason, onSaved }: { base: string; current: DiscordSettings | null; reason?: string; onSaved: () => void }) {
  const [applicationId, setApplicationId] = useState(current?.application_id ?? '')
  const [publicKey, setPublicKey] = useState(current?.public_key ?? '')
  const [botToken, setBotToken] = useState('')
  const [guildId, setGuildId] = useState(current?.guild_id ?? '')
  const [replyChannel, setReplyChannel] = useState(current?.reply_channel_id ?? '')
  const [replies, setReplies] = useState(current?.replies_enabled ?? true)
  const [perHour, setPerHour] = useState(String(current?.reports_per_hour ?? 10))
  const [blocked, setBlocked] = useState((current?.blocked_user_ids ?? []).join('\n'))
  const [removing, setRemoving] = useState(false)
  const off = Boolean(reason)
  const save = useAction(async () => {
    const body: DiscordSettingsBody = {
      application_id: applicationId.trim(),
      public_key: publicKey.trim(),
      guild_id: guildId.trim(),
      reply_channel_id: replyChannel.trim() || null,
      replies_enabled: replies,
      reports_per_hour: Number(perHour),
      blocked_user_ids: idsOf(blocked),
      ...(botToken.trim() ? { bot_token: botToken.trim() } : {}),
    }
    await api.put(base, body)
    setBotToken('')
    toast('Discord settings saved')
    onSaved()
  })
  const register = useAction(
    async () => {
      const r = await api.post<{ message: string }>(`${base}/register`)
      toast(r.message)
      onSaved()
    },
    { toastErrors: true },
  )
  return (
    <div class="stack">
      {current && <Endpoint url={current.interactions_endpoint_url} />}
      <form class="stack" onSubmit={save.onSubmit}>
        <TextField label="Application ID" inputMode="numeric" hint="Developer portal → your application → General Information." value={applicationId} onValue={setApplicationId} required disabled={off} />
        <TextField label="Public key" hint="On the same page: 64 hex characters. Every interaction is checked against it." value={publicKey} onValue={setPublicKey} required disabled={off} />
        <TextField
          label="Bot token"
          type="password"
          autoComplete="off"
          hint={current ? `Stored encrypted (${current.bot_token_hint}); leave empty to keep it.` : 'Developer portal → Bot → Reset Token. Stored encrypted, never shown again.'}
          value={botToken}
          onValue={setBotToken}
          required={!current}
          disabled={off}
        />
        <TextField label="Server (guild) ID" inputMode="numeric" hint="Right-click your server in Discord (Developer Mode on) → Copy Server ID." value={guildId} onValue={setGuildId} required disabled={off} />
        <Checkbox label="Tell the player in Discord when their report is in progress, fixed or won't be fixed" checked={replies} onChecked={setReplies} disabled={off} />
        <TextField label="Channel for status replies" inputMode="numeric" hint="Empty: the channel the report came from." value={replyChannel} onValue={setReplyChannel} disabled={off} />
        <TextField label="Reports per player per hour" type="number" min={1} max={1000} value={perHour} onValue={setPerHour} required disabled={off} />
        <TextArea label="Blocked Discord user IDs" hint="One per line; their /report is refused." rows={3} value={blocked} onValue={setBlocked} disabled={off} />
        {save.error && <p class="field-error" role="alert">{save.error}</p>}
        <div class="row">
          <Button type="submit" variant="primary" busy={save.busy} reason={reason}>
            {current ? 'Save Discord settings' : 'Connect Discord'}
          </Button>
          {current && (
            <Button onClick={register.run} busy={register.busy} reason={reason}>
              Register /report
            </Button>
          )}
          {current && (
            <Button variant="danger" onClick={() => setRemoving(true)} reason={reason}>
              Disconnect Discord
            </Button>
          )}
        </div>
        {current && <p class="muted small">{current.command_registered_at ? `/report registered ${formatDate(current.command_registered_at)}.` : '/report is not registered yet.'}</p>}
      </form>
      <ConfirmDialog
        open={removing}
        title="Disconnect Discord"
        message="/report stops filing reports here; reports already filed stay."
        confirmLabel="Disconnect"
        onClose={() => setRemoving(false)}
        onConfirm={async () => {
          const r = await api.delete<Message>(base)
          toast(r.message)
          onSaved()
        }}
      />
    </div>
  )
}

function Endpoint({ url }: { url: string }) {
  return (
    <div class="stack">
      <p>
        <strong>Interactions Endpoint URL</strong>: <code>{url}</code> <CopyButton text={url} label="Copy URL" />
      </p>
      <ol class="small">
        <li>In the Discord developer portal, open your application → General Information, and paste this URL as the Interactions Endpoint URL; Discord checks it with a signed PING when you save.</li>
        <li>Under Installation, invite the bot to your server with the <code>applications.commands</code> and <code>bot</code> scopes (Send Messages, for status replies).</li>
        <li>Press “Register /report” here: players then see /report in your server.</li>
      </ol>
    </div>
  )
}
