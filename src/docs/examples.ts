/**
 * Example values for the OpenAPI document, so the docs viewer shows what a person would send and get
 * (`report_number: 42`, `title: "Player falls through the floor"`) rather than what it derives from a
 * bare schema (`""`, or `-9007199254740991`: zod gives every integer the safe-integer bounds, and the
 * viewer shows an integer's minimum).
 */

type Json = Record<string, any>

const UUID = '0192f3a4-5b6c-7d8e-9f01-23456789abcd'

/** One table: the example of a field by its name, wherever it appears (bodies, answers, parameters). */
export const EXAMPLES: Record<string, unknown> = {
  id: UUID,
  user_id: UUID,
  project_id: UUID,
  report_id: UUID,
  account_id: UUID,
  integration_id: UUID,
  delivery_id: UUID,
  title: 'Player falls through the floor after the second checkpoint',
  description: 'After the second checkpoint the player drops through the level and respawns at the start.',
  steps_to_reproduce: '1. Load Level 2\n2. Reach the second checkpoint\n3. Jump onto the moving platform',
  expected_behavior: 'The player lands on the platform',
  actual_behavior: 'The player falls through the floor',
  body: 'Fixed in 1.4.3: the floor collider no longer misses fast falls.',
  comment: 'Happens every time on the Steam Deck',
  reason: 'Same crash as #17',
  name: 'Moon Lander',
  display_name: 'Dana Dev',
  reporter_name: 'PlayerOne',
  company_name: 'Lunar Forge Studio',
  page_title: 'Moon Lander known issues',
  channel_name: '#bugs',
  email: 'dana@studio.example',
  reporter_email: 'player@example.com',
  support_email: 'support@studio.example',
  password: 'correct horse battery staple',
  current_password: 'correct horse battery staple',
  new_password: 'a longer passphrase 2',
  slug: 'moon-lander',
  project_slug: 'moon-lander',
  api_key: 'sk_live_3kTz9QmW1xYb7NcV5LrH2aJd8FgS6uEo0pXiCy4B',
  game_version: '1.4.2',
  version: '1.4.2',
  first_version: '1.4.0',
  last_version: '1.4.2',
  resolved_in_version: '1.4.3',
  platform: 'Windows',
  os_info: 'Windows 11 23H2',
  device_info: 'RTX 3070, 32 GB',
  error_type: 'NullReferenceException',
  player_id: 'player-42',
  playerId: 'player-42',
  steam_id: '76561198000000000',
  session_token: '7f1c2a9e-run-0042',
  url: 'https://hooks.studio.example/glitchbox',
  website_url: 'https://moonlander.example',
  logo_url: 'https://moonlander.example/logo.png',
  avatar_url: 'https://moonlander.example/avatars/dana.png',
  repo_url: 'https://github.com/lunar-forge/moon-lander',
  primary_color: '#2E5BFF',
  accent_color: '#2E5BFF',
  color: '#E5484D',
  background_color: '#FFFFFF',
  text_color: '#1A1A2E',
  file_name: 'player.log',
  filename: 'player.log',
  mime_type: 'text/plain',
  report_number: 42,
  number: 42,
  upvotes: 12,
  occurrence_count: 31,
  player_count: 9,
  comment_count: 3,
  file_size: 20480,
  total: 128,
}

const SAFE = Number.MAX_SAFE_INTEGER

/** The JSON types a schema admits (its `type`, or each branch's of an `anyOf`/`oneOf`). */
function typesOf(schema: Json): string[] {
  if (typeof schema.type === 'string') return [schema.type]
  if (Array.isArray(schema.type)) return schema.type
  const branches: Json[] = schema.anyOf ?? schema.oneOf ?? []
  return branches.flatMap((b) => (b && typeof b === 'object' ? typesOf(b) : []))
}

/** Whether `value` matches a schema's `pattern`; a pattern JavaScript cannot read counts as no match. */
function matches(pattern: string, value: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(value)
  } catch {
    return false
  }
}

/** Whether `value` is one the schema takes, as far as the keywords this document uses tell. */
function fits(schema: Json, value: unknown): boolean {
  const types = typesOf(schema)
  if (typeof value === 'string') {
    if (!types.includes('string')) return false
    const s = (schema.type === 'string' ? schema : ((schema.anyOf ?? schema.oneOf ?? []) as Json[]).find((b) => b?.type === 'string')) ?? {}
    if (s.pattern && !matches(s.pattern, value)) return false
    if (s.format && s.format !== 'uri' && s.format !== 'email') return false
    return value.length >= (s.minLength ?? 0) && value.length <= (s.maxLength ?? Infinity)
  }
  if (typeof value === 'number') {
    if (!(types.includes('number') || (types.includes('integer') && Number.isInteger(value)))) return false
    const s = (types.length === 1 ? schema : ((schema.anyOf ?? schema.oneOf ?? []) as Json[]).find((b) => b?.type === 'integer' || b?.type === 'number')) ?? {}
    return value >= (s.minimum ?? -Infinity) && value <= (s.maximum ?? Infinity)
  }
  return false
}

const given = (s: Json) => 'example' in s || 'examples' in s || 'default' in s || 'const' in s || 'enum' in s

/** Drops zod's safe-integer bounds (they say nothing, and the viewer would show the minimum as the example). */
function dropSafeBounds(schema: Json): void {
  if (schema.minimum === -SAFE) delete schema.minimum
  if (schema.maximum === SAFE) delete schema.maximum
}

/** Gives `schema` (a field named `name`) its example from the table when it has none and the value fits. */
function exampleFor(name: string, schema: Json): void {
  if (!(name in EXAMPLES) || given(schema)) return
  const value = EXAMPLES[name]
  // Path parameters are strings, a report number too.
  const candidates = typeof value === 'number' ? [value, String(value)] : [value]
  const found = candidates.find((v) => fits(schema, v))
  if (found !== undefined) schema.examples = [found]
}

/** Walks every schema of the document (in place): bounds dropped, named fields and parameters given their examples. */
export function addExamples(node: unknown): void {
  if (Array.isArray(node)) {
    for (const n of node) addExamples(n)
    return
  }
  if (!node || typeof node !== 'object') return
  const o = node as Json
  dropSafeBounds(o)
  if (o.properties && typeof o.properties === 'object') {
    for (const [name, schema] of Object.entries<Json>(o.properties)) if (schema && typeof schema === 'object') exampleFor(name, schema)
  }
  // A parameter: `name` and `in` beside its schema.
  if (typeof o.name === 'string' && typeof o.in === 'string' && o.schema && typeof o.schema === 'object') {
    dropSafeBounds(o.schema)
    exampleFor(o.name, o.schema)
  }
  for (const v of Object.values(o)) addExamples(v)
}
