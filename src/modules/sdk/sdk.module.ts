import { Elysia } from 'elysia'
import type { DomainModule } from '../module'

export const sdkModule: DomainModule = {
  name: 'sdk',
  routes: () => new Elysia(),
}
