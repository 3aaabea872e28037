#!/usr/bin/env bash
# Generates new migrations from the changes to the Drizzle tables, for both engines: drizzle-kit diffs
# the SQLite tables against the last snapshot in migrations/meta; scripts/db/pg-schema.ts writes their
# PostgreSQL form (src/db/pg/schema.ts), which drizzle-kit diffs into migrations-pg/. Then every
# migration is embedded in src/db. Applied migrations are never edited: the server refuses a database
# whose applied migration differs from the embedded one. A lock serialises concurrent runs.
set -euo pipefail
cd "$(dirname "$0")/.."
exec 9>/tmp/glitchbox-db-generate.lock
flock 9
npx drizzle-kit generate "$@"
bun scripts/db/pg-schema.ts
npx drizzle-kit generate --config drizzle.pg.config.ts "$@"
bun scripts/embed-migrations.ts
