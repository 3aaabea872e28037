import * as z from 'zod'

export const checkoutBody = z.object({ plan: z.enum(['pro', 'studio']) })
export const verifySessionQuery = z.object({ session_id: z.string().min(1).max(255) })
export const paymentMethodBody = z.object({ payment_method_id: z.string().min(1).max(255) })
export const downgradeBody = z.object({ plan: z.enum(['free', 'pro']) })
