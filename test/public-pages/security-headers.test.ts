import { describe, expect, it } from 'vitest'
import { htmlSecurityHeaders, styleHashSource } from '../../web/server/security-headers'

describe('htmlSecurityHeaders', () => {
  it('forbids inline scripts and framing, sets nosniff and the referrer policy', () => {
    const h = htmlSecurityHeaders()
    const csp = h['content-security-policy']!
    expect(csp).toContain("script-src 'self'")
    expect(csp).not.toContain('unsafe-inline')
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).toContain("object-src 'none'")
    expect(h['x-content-type-options']).toBe('nosniff')
    expect(h['referrer-policy']).toBe('strict-origin-when-cross-origin')
    expect(h['content-type']).toBe('text/html; charset=utf-8')
  })

  it('allows each inline style by its SHA-256 hash only', async () => {
    const css = 'body{color:red}'
    const digest = Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(css))).toString('base64')
    expect(styleHashSource(css)).toBe(`'sha256-${digest}'`)
    const csp = htmlSecurityHeaders({ inlineStyles: [css] })['content-security-policy']!
    expect(csp).toContain(`style-src 'self' 'sha256-${digest}'`)
  })
})
