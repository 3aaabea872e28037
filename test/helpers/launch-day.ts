/**
 * A launch day as a studio lives it, for browser tests and screenshots (issue 24): 5,000 submissions
 * from 500 players over three versions. About 1,500 are automatic crash reports of 24 distinct
 * crashes (a few hit hundreds of players, most only a handful), the rest player-written reports;
 * 450 play sessions, the 1.3.0-beta build crashing far more often. Deterministic: the same seed
 * gives the same day.
 *
 * It only needs a way to send what a game client sends, so it runs against the in-process test app
 * or a real server alike:
 *
 *   await seedLaunchDay({ submit: (body) => h.api('POST', '/api/bugs/submit', { apiKey, body }), session: … })
 */

export const VERSIONS = ['1.2.0', '1.3.0-beta', '1.3.0'] as const
const PLATFORMS = ['Windows', 'Windows', 'Windows', 'Linux', 'macOS', 'Steam Deck'] as const

/** A small deterministic PRNG (mulberry32), so every run seeds the same day. */
function random(seed: number) {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return { next, pick: <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!, int: (n: number) => Math.floor(next() * n) }
}

const CRASH_PLACES = [
  ['NullReferenceException', 'InventoryPanel.Refresh', 'InventoryPanel.cs'],
  ['NullReferenceException', 'BoostController.Update', 'BoostController.cs'],
  ['NullReferenceException', 'QuestLog.Open', 'QuestLog.cs'],
  ['IndexOutOfRangeException', 'SaveSystem.LoadSlot', 'SaveSystem.cs'],
  ['InvalidOperationException', 'MatchMaker.Join', 'MatchMaker.cs'],
  ['KeyNotFoundException', 'LootTable.Roll', 'LootTable.cs'],
  ['ArgumentException', 'AudioMixer.SetVolume', 'AudioMixer.cs'],
  ['MissingReferenceException', 'BossArena.SpawnWave', 'BossArena.cs'],
] as const

/** 24 crashes: the first few hit hundreds of players, the tail a handful (weights fall off as 1/rank). */
const CRASHES = Array.from({ length: 24 }, (_, i) => {
  const [type, fn, file] = CRASH_PLACES[i % CRASH_PLACES.length]!
  const suffix = i >= CRASH_PLACES.length ? `${Math.floor(i / CRASH_PLACES.length)}` : ''
  return { type, fn: `${fn}${suffix}`, file, weight: 1 / (i + 1) }
})

const WORDS = 'door boss texture audio menu lag save load level enemy weapon shader camera quest npc dialog cutscene checkpoint respawn minimap tooltip controller framerate lighting shadow particle ladder bridge cave'.split(' ')
const PROBLEMS = ['does not open', 'flickers', 'is missing', 'stutters', 'goes silent', 'clips through the wall', 'resets after a restart', 'shows the wrong text']

export interface LaunchDaySender {
  /** Sends one `POST /api/bugs/submit` body; resolves when it is answered. */
  submit(body: Record<string, unknown>): Promise<unknown>
  /** Starts and ends one play session (`/api/sessions/start` then `/end`). */
  session?(start: Record<string, unknown>, crashed: boolean): Promise<unknown>
}

/** Sends the launch day through `sender`, `concurrency` requests at a time; returns what it sent. */
export async function seedLaunchDay(sender: LaunchDaySender, o: { submissions?: number; players?: number; sessions?: number; seed?: number; concurrency?: number } = {}) {
  const r = random(o.seed ?? 20261126)
  const players = Array.from({ length: o.players ?? 500 }, (_, i) => `7656119800${String(i).padStart(7, '0')}`)
  const total = o.submissions ?? 5000
  const weights = CRASHES.reduce((s, c) => s + c.weight, 0)
  const bodies: Record<string, unknown>[] = []
  for (let i = 0; i < total; i++) {
    const version = VERSIONS[i < total * 0.3 ? 0 : r.next() < 0.55 ? 1 : 2]!
    const player = r.pick(players)
    const platform = r.pick(PLATFORMS)
    if (r.next() < 0.3) {
      // Pick a crash by weight; the 1.3.0-beta build crashes more in the busiest places.
      let x = r.next() * weights
      const crash = CRASHES.find((c) => (x -= c.weight) <= 0) ?? CRASHES[0]!
      bodies.push({
        title: `[Error] ${crash.type}: ${crash.type === 'NullReferenceException' ? 'Object reference not set to an instance of an object' : `${crash.fn} failed on slot ${r.int(9)}`}`,
        description: `${crash.type}\n\n--- Stack Trace ---\n  at ${crash.fn} () [0x000${r.int(9)}a] in Assets/Scripts/${crash.file}:${40 + r.int(30)}\n  at UnityEngine.Events.InvokableCall.Invoke () [0x00010] in <4b2e1c>:0\n\n--- Recent Logs ---\n[Log] Scene loaded: Level${1 + r.int(8)}\n[Warning] Frame took ${20 + r.int(80)} ms`,
        category: 'crash',
        priority: 'high',
        platform,
        game_version: version,
        steam_id: player,
        auto_captured: true,
        device_info: r.pick(['RTX 3060, 16 GB RAM', 'GTX 1060, 8 GB RAM', 'Steam Deck APU, 16 GB RAM', 'RX 6700 XT, 32 GB RAM']),
        os_info: platform === 'Linux' ? 'Ubuntu 24.04' : platform === 'macOS' ? 'macOS 15.1' : platform === 'Steam Deck' ? 'SteamOS 3.6' : 'Windows 11 23H2',
      })
    } else {
      const thing = r.pick(WORDS)
      bodies.push({
        title: `The ${thing} ${r.pick(PROBLEMS)} in ${r.pick(WORDS)} ${1 + r.int(40)}`,
        description: `Playing on ${platform}. The ${thing} ${r.pick(PROBLEMS)} every time I get there. ${r.next() < 0.3 ? 'Really frustrating, I lost an hour of progress.' : 'Otherwise loving the game!'}`,
        category: r.pick(['gameplay', 'visual', 'audio', 'ui', 'performance', 'network']),
        platform,
        game_version: version,
        steam_id: player,
        reporter_name: `Player${players.indexOf(player)}`,
      })
    }
  }
  const concurrency = o.concurrency ?? 16
  for (let i = 0; i < bodies.length; i += concurrency) await Promise.all(bodies.slice(i, i + concurrency).map((b) => sender.submit(b)))
  const sessions = o.sessions ?? 450
  if (sender.session) {
    for (let i = 0; i < sessions; i++) {
      const version = VERSIONS[i % 3]!
      // Crash-free sessions: 1.2.0 about 98%, 1.3.0-beta about 88%, 1.3.0 about 96%.
      const crashRate = version === '1.3.0-beta' ? 0.12 : version === '1.2.0' ? 0.02 : 0.04
      await sender.session({ session_token: `launch-day-${i}-${'x'.repeat(4)}`, game_version: version, platform: r.pick(PLATFORMS), steam_id: r.pick(players), player_name: null }, r.next() < crashRate)
    }
  }
  return { submissions: bodies.length, sessions: sender.session ? sessions : 0, crashes: CRASHES.length }
}
