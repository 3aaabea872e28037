import { defineConfig } from 'drizzle-kit'

// PostgreSQL migrations, diffed from src/db/pg/schema.ts (generated from the SQLite tables by
// scripts/db/pg-schema.ts); `npm run db:generate` runs both engines' generators.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/pg/schema.ts',
  out: './migrations-pg',
})
