// The /report round trip in Discord's shapes: the command we register, the modal we answer, the
// submission and button clicks Discord sends back, and the messages we edit in.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isDiscordAttachmentUrl } from '../../src/modules/discord/discord-attachments'
import { parseReportCommand, reportCommandRegistration } from '../../src/modules/discord/discord-report-command'
import { deferredEphemeral, duplicateSuggestions, parseButtonClick, pong, statusReply, thanksEdit, votedUpdate } from '../../src/modules/discord/discord-report-messages'
import { parseReportSubmission, reportModal } from '../../src/modules/discord/discord-report-modal'
import { fuzzSeed } from '../helpers/fuzz-seed'

const SEED = fuzzSeed(33)

const base = {
  id: '1290000000000000001',
  application_id: '1280000000000000000',
  token: 'aW50ZXJhY3Rpb246MTI5MDAwMDAwMDAwMDAwMDAwMTp0b2tlbg',
  guild_id: '1100000000000000000',
  channel_id: '1110000000000000000',
  member: { user: { id: '80351110224678912', username: 'pixelknight', global_name: 'Pixel Knight' }, roles: [] },
  locale: 'en-US',
  version: 1,
}

/** A modal submission as Discord sends it for our modal: inputs inside labels, files resolved. */
function submission(over: { title?: string; description?: string; steps?: string; files?: string[]; custom_id?: string } = {}) {
  return {
    ...base,
    type: 5,
    data: {
      custom_id: over.custom_id ?? 'glitchbox_report',
      components: [
        { type: 18, id: 1, component: { type: 4, id: 2, custom_id: 'title', value: over.title ?? '  Boss freezes after cutscene ' } },
        { type: 18, id: 3, component: { type: 4, id: 4, custom_id: 'description', value: over.description ?? 'The screen stays black.' } },
        { type: 18, id: 5, component: { type: 4, id: 6, custom_id: 'steps', value: over.steps ?? '' } },
        { type: 18, id: 7, component: { type: 19, id: 8, custom_id: 'screenshots', values: over.files ?? ['1300000000000000001'] } },
      ],
      resolved: {
        attachments: {
          '1300000000000000001': { id: '1300000000000000001', filename: 'freeze.png', size: 48213, url: 'https://cdn.discordapp.com/ephemeral-attachments/1/2/freeze.png?ex=1&is=2&hm=3', proxy_url: 'https://media.discordapp.net/x', content_type: 'image/png', width: 1920, height: 1080 },
        },
      },
    },
  }
}

describe('the /report command', () => {
  it('registers /report with localized descriptions and an optional screenshot attachment', () => {
    const [command, ...others] = reportCommandRegistration()
    expect(others).toEqual([])
    expect(command).toMatchObject({ name: 'report', type: 1, description: expect.any(String), description_localizations: { 'en-US': expect.any(String) } })
    expect(command!.description.length).toBeLessThanOrEqual(100)
    expect(command!.options).toEqual([expect.objectContaining({ type: 11, name: 'screenshot', required: false })])
  })

  it('parses the command with the screenshot option resolved', () => {
    const cmd = parseReportCommand({
      ...base,
      type: 2,
      data: { id: '9', name: 'report', type: 1, options: [{ name: 'screenshot', type: 11, value: '77' }], resolved: { attachments: { '77': { id: '77', filename: 'a.jpg', size: 10, url: 'https://cdn.discordapp.com/attachments/1/77/a.jpg', content_type: 'image/jpeg' } } } },
    })
    expect(cmd).toMatchObject({ user: { id: '80351110224678912' }, guild_id: base.guild_id, attachment: { filename: 'a.jpg', content_type: 'image/jpeg', size: 10 } })
    expect(() => parseReportCommand({ ...base, type: 2, data: { name: 'ban' } })).toThrow(/unknown command \/ban/)
  })

  it('answers with a modal: title, what happened, optional steps and a File Upload inside a Label', () => {
    const modal = reportModal({ carry: 'att_77' })
    expect(modal.type).toBe(9)
    expect(modal.data.custom_id).toBe('glitchbox_report:att_77')
    expect(modal.data.title.length).toBeLessThanOrEqual(45)
    expect(modal.data.components.map((c) => [c.type, c.component.type, c.component.custom_id, c.component.required])).toEqual([
      [18, 4, 'title', true],
      [18, 4, 'description', true],
      [18, 4, 'steps', false],
      [18, 19, 'screenshots', false],
    ])
    for (const c of modal.data.components) expect(c.label.length).toBeLessThanOrEqual(45)
    expect(() => reportModal({ carry: 'no spaces: allowed' })).toThrow()
  })
})

describe('the modal submission', () => {
  it('parses texts, screenshots, the player, the guild, the channel and the token', () => {
    expect(parseReportSubmission(submission())).toEqual({
      interactionId: base.id,
      applicationId: base.application_id,
      token: base.token,
      title: 'Boss freezes after cutscene',
      description: 'The screen stays black.',
      steps: null,
      attachments: [{ url: 'https://cdn.discordapp.com/ephemeral-attachments/1/2/freeze.png?ex=1&is=2&hm=3', content_type: 'image/png', size: 48213, filename: 'freeze.png' }],
      user: { id: '80351110224678912', username: 'pixelknight', global_name: 'Pixel Knight' },
      guild_id: base.guild_id,
      channel_id: base.channel_id,
      locale: 'en-US',
      carry: null,
    })
  })

  it('reads inputs in action rows too, the carried key, and a user outside a guild', () => {
    const { member: _m, guild_id: _g, ...dm } = submission({ custom_id: 'glitchbox_report:att_77' })
    const rows = { ...dm, user: { id: '5', username: 'solo', global_name: null }, data: { ...dm.data, components: [{ type: 1, components: [{ type: 4, custom_id: 'title', value: 'T' }] }, { type: 1, components: [{ type: 4, custom_id: 'description', value: 'D' }] }], resolved: undefined } }
    expect(parseReportSubmission(rows)).toMatchObject({ title: 'T', description: 'D', attachments: [], user: { id: '5' }, guild_id: null, carry: 'att_77' })
  })

  it.each([
    ['an empty title', submission({ title: '   ' }), /title and what happened are required/],
    ['another modal', submission({ custom_id: 'someone_else' }), /not the \/report form/],
    ['a body of the wrong shape', { type: 5, data: 'x' }, /wrong shape/],
    ['no user at all', { ...submission(), member: undefined }, /names no user/],
  ])('refuses %s with a 400', (_what, payload, message) => {
    let error: unknown
    try { parseReportSubmission(payload) } catch (err) { error = err }
    expect(error).toMatchObject({ status: 400, message: expect.stringMatching(message) })
  })

  it('keeps only files Discord resolved, each once', () => {
    const parsed = parseReportSubmission(submission({ files: ['1300000000000000001', '1300000000000000001', '999', 'constructor', '__proto__'] }))
    expect(parsed.attachments.map((a) => a.filename)).toEqual(['freeze.png'])
  })
})

describe('answers and messages', () => {
  it('answers PING with PONG and a submission with a deferred ephemeral message', () => {
    expect(pong()).toEqual({ type: 1 })
    expect(deferredEphemeral()).toEqual({ type: 5, data: { flags: 64 } })
  })

  it('offers up to three similar reports as +1 buttons, plus one to send the report anyway', () => {
    const reports = [1, 2, 3, 4].map((n) => ({ report_number: n * 10, title: `Crash number ${n} ${'x'.repeat(100)} @everyone` }))
    const msg = duplicateSuggestions({ reports, pendingKey: 'p1' })
    const buttons = msg.components[0]!.components
    expect(buttons.map((b) => b.custom_id)).toEqual(['glitchbox_vote:10_p1', 'glitchbox_vote:20_p1', 'glitchbox_vote:30_p1', 'glitchbox_file:p1'])
    for (const b of buttons) expect(b.label.length).toBeLessThanOrEqual(80)
    expect(msg.allowed_mentions).toEqual({ parse: [] })
  })

  it('parses a click on a +1 button and on "send my report"', () => {
    const click = (custom_id: string) => ({ ...base, type: 3, data: { custom_id, component_type: 2 }, message: { id: '3' } })
    expect(parseButtonClick(click('glitchbox_vote:20_p1'))).toMatchObject({ action: 'vote', reportNumber: 20, pendingKey: 'p1', user: { id: '80351110224678912' }, token: base.token })
    expect(parseButtonClick(click('glitchbox_file:p1'))).toMatchObject({ action: 'file', pendingKey: 'p1' })
    expect(() => parseButtonClick(click('glitchbox_vote:abc_p1'))).toThrow(/not one of our buttons/)
    expect(() => parseButtonClick({ ...click('glitchbox_file:p1'), type: 5 })).toThrow(/wrong shape/)
  })

  it('thanks the player with the report number, and the tracker link only when given', () => {
    expect(thanksEdit({ reportNumber: 42, url: 'https://bugs.example.com/p/cave/42' })).toEqual({ content: 'Thanks — report #42 was sent to the developers. Follow it here: <https://bugs.example.com/p/cave/42>', components: [], allowed_mentions: { parse: [] } })
    expect(thanksEdit({ reportNumber: 42 }).content).toBe('Thanks — report #42 was sent to the developers.')
    expect(votedUpdate({ reportNumber: 7 })).toMatchObject({ type: 7, data: { content: 'Thanks — your +1 was added to report #7.', components: [] } })
  })

  it('mentions only the player in a status reply', () => {
    const reply = statusReply({ userId: '8035', reportNumber: 42, title: 'Boss freezes', status: 'resolved' })
    expect(reply).toEqual({ content: '<@8035> your report #42 “Boss freezes” is fixed.', allowed_mentions: { parse: [], users: ['8035'] } })
  })
})

describe('isDiscordAttachmentUrl', () => {
  const defaults = { providerUrls: {} }
  const moved = { providerUrls: { discord_cdn: 'http://127.0.0.1:4567' } }
  it.each([
    [defaults, 'https://cdn.discordapp.com/attachments/1/2/a.png?ex=1', true],
    [defaults, 'https://media.discordapp.net/attachments/1/2/a.png', true],
    [defaults, 'http://cdn.discordapp.com/attachments/1/2/a.png', false],
    [defaults, 'https://cdn.discordapp.com.evil.example/a.png', false],
    [defaults, 'https://user:pw@cdn.discordapp.com/a.png', false],
    [defaults, 'http://127.0.0.1/a.png', false],
    [defaults, 'not a url', false],
    [moved, 'http://127.0.0.1:4567/attachments/a.png', true],
    [moved, 'http://127.0.0.1:4568/attachments/a.png', false],
    [moved, 'https://cdn.discordapp.com/attachments/1/2/a.png', false],
    [moved, 'https://media.discordapp.net/attachments/1/2/a.png', false],
  ])('%j: %s → %s', (config, url, allowed) => {
    expect(isDiscordAttachmentUrl(config, url)).toBe(allowed)
  })
})

describe('hostile bodies', () => {
  it('every parser answers any JSON with a parsed value or a 400, never another error', () => {
    const parsers = [parseReportCommand, parseReportSubmission, parseButtonClick]
    const near = fc.record({ ...Object.fromEntries(Object.entries(base).map(([k, v]) => [k, fc.constantFrom(v, null, 7, 'x')])), type: fc.integer({ min: 0, max: 6 }), data: fc.jsonValue() })
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), near), (payload) => {
        for (const parse of parsers) {
          try { parse(payload) } catch (err) { expect(err).toMatchObject({ status: 400 }) }
        }
      }),
      { seed: SEED, numRuns: 500 },
    )
  })
})
