// A game on Node reporting through @sentry/node, as issue 29 (items 1, 5 and 6) found it: the player's
// OS named by the game (contexts.os and a `platform` tag), a `map` tag, the environment from SENTRY_ENVIRONMENT,
// and the error to throw from GAME_ERROR (from compileShader when it names a shader, else from
// loadArena: two places, two reports). Run by Node with SENTRY_DSN set.
import * as Sentry from '@sentry/node'

Sentry.init({
  dsn: process.env.SENTRY_DSN,
  release: 'cave-game@1.3.1',
  environment: process.env.SENTRY_ENVIRONMENT,
  tracesSampleRate: 0,
  defaultIntegrations: false,
  integrations: [Sentry.linkedErrorsIntegration(), Sentry.nodeContextIntegration()],
})
Sentry.setContext('os', { name: 'Windows', version: '10.0.19045' })
Sentry.setTag('platform', 'Windows')
// The level the error happened on, as a game tags its events (issue 29, item 6: tags are searchable).
Sentry.setTag('map', process.env.GAME_ERROR.includes('shader') ? 'caves' : 'arena')
Sentry.setUser({ id: `player-${process.env.SENTRY_ENVIRONMENT}` })

function loadArena() {
  throw new Error(process.env.GAME_ERROR)
}
function compileShader() {
  throw new Error(process.env.GAME_ERROR)
}
try {
  if (process.env.GAME_ERROR.includes('shader')) compileShader()
  else loadArena()
} catch (err) {
  Sentry.captureException(err)
}
await Sentry.flush(5000)
