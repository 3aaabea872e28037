import { afterEach, beforeEach } from 'vitest'
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { type Fake, startFake } from './helpers'

/**
 * Like `integrationsTestbed`, for the trackers whose keys it does not point at the fake: per test a
 * fake provider, an app whose `GLITCHBOX_PROVIDER_URL_<KEY>` for `key` is the fake and which may call
 * 127.0.0.1, an owner on self_hosted and a project. Read the fields inside tests.
 */
export function trackerTestbed(key: string) {
  const bed = {} as { t: TestApp; fake: Fake; owner: TestUser; project: TestProject; base: string }
  beforeEach(async () => {
    bed.fake = startFake()
    bed.t = createTestApp({ env: { GLITCHBOX_ALLOW_PRIVATE_TARGETS: 'true', [`GLITCHBOX_PROVIDER_URL_${key.toUpperCase()}`]: bed.fake.url } })
    bed.owner = await createUser(bed.t, { plan: 'self_hosted' })
    bed.project = await createProject(bed.t, bed.owner)
    bed.base = `/api/projects/${bed.project.slug}/integrations`
  })
  afterEach(() => {
    bed.fake.stop()
    bed.t.close()
  })
  return bed
}
