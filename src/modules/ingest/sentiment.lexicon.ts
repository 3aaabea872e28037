/**
 * The word lists of the sentiment scorer (sentiment.ts) beyond AFINN-165: how players write bug
 * reports. Valences are on AFINN's scale (-5..+5).
 */

/**
 * Game words whose AFINN valence misreads a bug report. Describing a bug is not a mood: "the enemy
 * is killed", "crash when opening the map", "stuck in the wall" are neutral facts, and "joke" or
 * "free" in a report are complaints or offers, not praise. Complaints a player only writes when upset
 * ("unplayable", "refund", "rubberbanding") weigh in; lag and stutter a little, because they are also
 * reported matter-of-factly.
 */
export const GAME_VALENCE: Record<string, number> = {
  // Describing the game or the bug, not the player's mood.
  crash: 0, crashes: 0, crashed: 0, crashing: 0, bug: 0, bugs: 0, error: 0, errors: 0, fail: 0, fails: 0, failed: 0,
  broken: 0, stuck: 0, freeze: 0, froze: 0, frozen: 0, kill: 0, killed: 0, killing: 0, kills: 0, dead: 0, die: 0,
  died: 0, dies: 0, dying: 0, death: 0, enemy: 0, enemies: 0, attack: 0, attacks: 0, attacked: 0, attacking: 0,
  shoot: 0, shot: 0, hit: 0, hits: 0, fighting: 0, destroys: 0, falling: 0, hurt: 0, hurts: 0,
  fight: 0, destroy: 0, damage: 0, wrong: 0, missing: 0, hard: 0, difficult: 0, lost: -1, lose: -1, no: 0,
  problem: 0, problems: 0, stop: 0, stops: 0, block: 0, blocked: 0, cut: 0, black: 0, drop: 0, drops: 0, fall: 0,
  falls: 0, please: 0, help: 0, support: 0, free: 0, like: 0, pretty: 0, joke: -2, fine: 1, worth: 1, fair: 1,
  cheater: 0, banned: -1, reset: 0, resets: 0, desync: 0, clip: 0, clips: 0, want: 0, pay: 0, empty: 0,
  // What games are made of: saves, loot, combat and danger are things a report names, not feelings.
  save: 0, saved: 0, saves: 0, gold: 0, treasure: 0, reward: 0, win: 0, won: 0, victory: 0, lucky: 0, rich: 0,
  wealth: 0, friend: 0, alive: 0, safe: 0, rescue: 0, strong: 0, weak: 0, cheat: 0, cheats: 0, ghost: 0, trap: 0,
  poison: 0, bloody: 0, curse: 0, scary: 0, fear: 0, fire: 0, bomb: 0, gun: 0, war: 0, battle: 0, combat: 0,
  crime: 0, prison: 0, steal: 0, stolen: 0, destroyed: 0, violence: 0, doom: 0, chaos: 0, danger: 0, threat: 0,
  dangerous: 0,
  // Complaints.
  unplayable: -4, refund: -3, refunded: -3, uninstalled: -3, uninstall: -2, lag: 0, lags: 0, laggy: -2, lagged: 0,
  stutter: 0, stuttering: 0, rubberbanding: -2, rubberband: -2, garbage: -3, trash: -3, nightmare: -3, slideshow: -2,
  pathetic: -3, horrendous: -3, horrible: -3, unbearable: -3, unacceptable: -3, embarrassing: -3, ridiculous: -3,
  theft: -2, abandoned: -2, regret: -3, wasted: -2, waste: -2, ruined: -3, ruins: -3, ruin: -3, furious: -4,
  insulting: -3, useless: -3, shameful: -3, awful: -3, terrible: -3, worst: -4, sick: -2, again: -1,
  // Praise players give games.
  smooth: 2, smoothly: 2, hooked: 3, addictive: 2, gorgeous: 3, cozy: 2, polished: 2, flawlessly: 3, blast: 3,
  rocks: 2, legends: 3, kudos: 3, stable: 1, responsive: 1, improvement: 2, grateful: 3, enjoyed: 2, enjoying: 2,
  loved: 3, loving: 3, breathtaking: 4, superb: 4, incredible: 3, stunning: 4, satisfying: 2, delighted: 3,
  fixed: 1, thanks: 1, thank: 1, appreciate: 2, polish: 2,
}

/** Words that turn the valence of the next few words within their clause ("not bad", "never loads"). */
export const NEGATORS = new Set([
  'not', 'no', 'never', 'without', 'nothing', 'none', 'zero', 'hardly', 'barely', 'cannot', 'cant', "can't", 'dont',
  "don't", 'doesnt', "doesn't", 'didnt', "didn't", 'isnt', "isn't", 'wont', "won't", 'wasnt', "wasn't", 'aren',
  "aren't", 'havent', "haven't", 'hasnt', "hasn't", 'couldnt', "couldn't", 'shouldnt', "shouldn't",
])

/** What players report as a problem: negated ("no crashes", "zero lag", "without a single disconnect") it is praise. */
export const PROBLEMS = new Set([
  'crash', 'crashes', 'crashed', 'bug', 'bugs', 'issue', 'issues', 'problem', 'problems', 'lag', 'stutter',
  'stuttering', 'disconnect', 'disconnects', 'errors', 'hiccups',
])

/** Words that strengthen the next sentiment word. */
export const INTENSIFIERS = new Set([
  'so', 'very', 'really', 'extremely', 'absolutely', 'totally', 'completely', 'super', 'incredibly', 'literally',
  'truly', 'insanely', 'utterly', 'beyond', 'such', 'seriously', 'honestly', 'most',
])

/** Phrases with a valence of their own, matched on the lowercased text before single words. */
export const PHRASES: [RegExp, number][] = [
  [/\b(?:want|need|asking for|give me) (?:my|a|the) (?:money back|refund)\b|\bwant my (?:\w+ )?\w+ back\b/g, -4],
  [/\bdo not buy\b|\bdon'?t buy\b|\bnever (?:again|buying)\b|\bnot coming back\b|\bsave yourselves\b/g, -4],
  [/\bi'?m (?:so )?done\b|\bsick of\b|\btired of\b|\bfed up\b|\blosing (?:my mind|patience)\b|\bwhat a waste\b/g, -3],
  [/\bnobody cares\b|\bno (?:answer|response|reply)\b|\b(?:paid|at|for) full price\b|\bcan'?t (?:even )?play\b/g, -2],
  [/\bfix (?:it|this|your)\b|\bsort it out\b|\bhow hard can it be\b|\bwho (?:tests|thought)\b|\bhow did this pass\b/g, -2],
  [/\b(?:fixes|fixed|changed) nothing\b|\bstill not fixed\b|\bstill broken\b|\b(?:crashes|crashed|again) again\b|\bcan'?t even\b/g, -2],
  [/\bwell done\b|\bgreat job\b|\bnice work\b|\bkeep it up\b|\b10\/10\b|\bhaving a blast\b|\bmade my (?:day|week)\b|\bcan'?t stop playing\b/g, 3],
  [/\bmuch better\b|\bso much better\b|\bhuge improvement\b|\bworks perfectly\b|\bnot a single (?:bug|crash|issue)\b/g, 3],
]

/** Markers that say the praise around them is meant the other way: they turn every positive word negative. */
export const SARCASM = /\b(?:yeah,? right|my foot|thanks for nothing)\b|(?:^|\s)\/s\b|["“](?:fixed|stable|improved|improvements|optimi[sz]ed|working|smooth)["”]/

/**
 * Markers that are sarcastic only in a complaint: "Oh great, …", "Thanks a lot for wiping …", "Love
 * how …", "Nice one." They turn positive words negative when the rest of the text is negative.
 */
export const SARCASM_IF_NEGATIVE = /\b(?:oh,? (?:great|wonderful|fantastic|joy|nice|perfect|good)\b|thanks a lot\b|love (?:how|paying)\b|nice one\b|brilliant\.|amazing work\b|really appreciate it\b|funny how\b)/g
