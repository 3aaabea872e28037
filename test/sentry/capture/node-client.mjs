// The @sentry/node scenario of capture.ts: run by Node with SENTRY_DSN pointing at the capture server.
// Each step flushes before the next, so the requests arrive in this order.
import * as Sentry from '@sentry/node'

Sentry.init({
  dsn: process.env.SENTRY_DSN,
  release: 'cave-game@1.4.2',
  environment: 'playtest',
  dist: '2024.05.01',
  // No transactions or spans: only what a game's error reporting sends.
  tracesSampleRate: 0,
  defaultIntegrations: false,
  integrations: [Sentry.linkedErrorsIntegration(), Sentry.contextLinesIntegration(), Sentry.nodeContextIntegration(), Sentry.onUncaughtExceptionIntegration({ exitEvenIfOtherHandlersAreRegistered: true })],
})
Sentry.setUser({ id: 'player-7', username: 'CaveDiver', email: 'diver@example.com' })
Sentry.setTag('level', 'forest-2')
Sentry.addBreadcrumb({ category: 'scene', message: 'Loaded scene Forest2', level: 'info' })
Sentry.addBreadcrumb({ category: 'inventory', message: 'Picked up a torch', level: 'warning', data: { slot: 3 } })

function loadSave() {
  throw new TypeError('save slot 3 is empty')
}
function openInventory() {
  try {
    loadSave()
  } catch (cause) {
    throw new Error('inventory could not open', { cause })
  }
}

// 1. A thrown error with a cause.
let errorId
try {
  openInventory()
} catch (err) {
  errorId = Sentry.captureException(err)
}
await Sentry.flush(2000)

// 2. A message.
Sentry.captureMessage('Player reached the waterfall', 'warning')
await Sentry.flush(2000)

// 3. User feedback about the error.
Sentry.captureFeedback({ message: 'The inventory never opened after the cave.', name: 'CaveDiver', email: 'diver@example.com', associatedEventId: errorId, url: 'game://forest-2' })
await Sentry.flush(2000)

// 4. An error with two attachments; past 32 KB the body goes gzip-compressed.
Sentry.withScope((scope) => {
  scope.addAttachment({ filename: 'save-3.json', data: '{"slot":3,"items":[]}', contentType: 'application/json' })
  scope.addAttachment({ filename: 'player.log', data: 'frame 1200: torch lit\n'.repeat(2000) })
  Sentry.captureException(new RangeError('torch count out of range'))
})
await Sentry.flush(2000)

// 5. A session that ends crashed: an uncaught error while it runs (the process exits).
Sentry.startSession()
setTimeout(() => {
  throw new ReferenceError('player is not defined')
}, 10)
