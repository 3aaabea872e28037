import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.{ts,tsx}', 'src/**/*.test.{ts,tsx}', 'web/**/*.test.{ts,tsx}'],
    pool: 'threads',
    globalSetup: ['test/helpers/temp-root.global.ts', 'test/helpers/pg-engine.global.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
