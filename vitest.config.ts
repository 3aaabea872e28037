import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    pool: 'threads',
    globalSetup: ['test/helpers/temp-root.global.ts', 'test/helpers/pg-engine.global.ts'],
    setupFiles: ['test/helpers/pg-engine.setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      // The server's tests share their workers' modules (no isolation): each file imports the whole app,
      // and evaluating it again for each of ~330 files took a third of the suite's time on two cores.
      // Every file builds its own app, data directory and database, so none sees another's state.
      { extends: true, test: { name: 'server', include: ['test/**/*.test.{ts,tsx}', 'src/**/*.test.{ts,tsx}'], isolate: false } },
      // The web app's unit tests replace modules with vi.mock, which needs a fresh module graph per file.
      { extends: true, test: { name: 'web', include: ['web/**/*.test.{ts,tsx}'] } },
    ],
  },
})
