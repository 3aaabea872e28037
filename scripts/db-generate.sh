#!/usr/bin/env bash
# Regenerates the migrations from the Drizzle tables and embeds them in src/db.
# Until the first release the schema is one "init" migration, rebuilt from scratch each time,
# so concurrent schema work never produces conflicting numbered files. A lock serialises runs.
set -euo pipefail
cd "$(dirname "$0")/.."
exec 9>/tmp/glitchbox-db-generate.lock
flock 9
rm -rf migrations
npx drizzle-kit generate --name init >/dev/null
bun scripts/embed-migrations.ts
