// A launch-day @sentry/node client (issue 29 items 3 and 4), run by Node with SENTRY_DSN: a handled
// error, a fatal message, an event cached offline two days ago, one from a clock set a day ahead,
// and last an uncaught error (the process exits). Each step flushes before the next.
import * as Sentry from '@sentry/node'

const DAY = 86_400_000
Sentry.init({
  dsn: process.env.SENTRY_DSN,
  release: 'cave-game@1.3.1',
  tracesSampleRate: 0,
  defaultIntegrations: false,
  integrations: [Sentry.onUncaughtExceptionIntegration({ exitEvenIfOtherHandlersAreRegistered: true })],
  // What an offline cache does: the event keeps the time it happened, sent later.
  beforeSend(event) {
    const shift = event.tags?.shift
    if (shift) event.timestamp = Date.now() / 1000 + Number(shift) * (DAY / 1000)
    return event
  },
})
Sentry.setUser({ id: 'player-1' })

function saveGame() {
  throw new Error('disk quota reached')
}
// 1. A handled error: caught and reported, the game goes on.
try {
  saveGame()
} catch (err) {
  Sentry.captureException(err)
}
await Sentry.flush(2000)

// 2. A fatal message: the game is going down.
Sentry.captureMessage('Renderer lost the device', 'fatal')
await Sentry.flush(2000)

// 3. A handled error that happened two days ago, sent now; 4. one from a clock a day ahead.
for (const [title, shift] of [['offline save failure', '-2'], ['clock ahead failure', '1']]) {
  Sentry.withScope((scope) => {
    scope.setTag('shift', shift)
    Sentry.captureException(new RangeError(title))
  })
  await Sentry.flush(2000)
}

// 5. An uncaught error: the SDK reports it unhandled, then the process exits.
setTimeout(() => {
  throw new TypeError('inventory is undefined')
}, 10)
