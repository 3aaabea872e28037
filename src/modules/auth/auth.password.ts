/**
 * argon2id cost, chosen on the 2-core build machine: 19 MiB memory and 2 passes (the OWASP
 * baseline) take about 46 ms per hash there, enough to make offline guessing expensive while a
 * small self-hosted server still answers a burst of logins quickly (64 MiB/t=2 took ~160 ms).
 */
export const PASSWORD_HASH_OPTIONS = { algorithm: 'argon2id', memoryCost: 19_456, timeCost: 2 } as const

export const MIN_PASSWORD_LENGTH = 8

/** An argon2id hash of `password` with the server's cost parameters. */
export function hashPassword(password: string): Promise<string> {
  return Bun.password.hash(password, PASSWORD_HASH_OPTIONS)
}

let dummyHash: Promise<string> | null = null

/**
 * Checks `password` against `hash`. With no hash (unknown email, social-only account) it still
 * runs one verification against a dummy hash of the same cost, so failures take the same time.
 */
export async function verifyPassword(password: string, hash: string | null | undefined): Promise<boolean> {
  if (hash) {
    try {
      return await Bun.password.verify(password, hash)
    } catch {
      return false
    }
  }
  dummyHash ??= hashPassword(crypto.randomUUID())
  await Bun.password.verify(password, await dummyHash)
  return false
}
