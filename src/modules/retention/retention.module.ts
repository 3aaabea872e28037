import type { DomainModule } from '../module'
import { retentionJobs } from './retention.jobs'

/** Retention of raw telemetry and replays, with the daily rollups that outlive them. */
export const retentionModule: DomainModule = { name: 'retention', jobs: retentionJobs }
