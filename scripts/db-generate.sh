#!/usr/bin/env bash
# Generates a new migration from the changes to the Drizzle tables (drizzle-kit diffs against the
# last snapshot in migrations/meta) and embeds every migration in src/db. Applied migrations are
# never edited: the server refuses a database whose applied migration differs from the embedded one.
# A lock serialises concurrent runs.
set -euo pipefail
cd "$(dirname "$0")/.."
exec 9>/tmp/glitchbox-db-generate.lock
flock 9
npx drizzle-kit generate "$@"
bun scripts/embed-migrations.ts
