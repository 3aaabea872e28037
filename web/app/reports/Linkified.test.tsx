import { renderToString } from 'preact-render-to-string'
import { describe, expect, it } from 'vitest'
import { Linkified } from './Linkified'

describe('Linkified', () => {
  it('escapes markup from the text and links only web addresses', () => {
    const html = renderToString(<Linkified text={'<img src=x onerror=alert(1)> see https://ex.com/a?b=1&c=2 or javascript:alert(1)'} />)
    expect(html).not.toContain('<img')
    expect(html).toContain('&lt;img src=x onerror=alert(1)>')
    expect(html).toContain('<a href="https://ex.com/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer nofollow ugc">https://ex.com/a?b=1&amp;c=2</a>')
    expect(html).not.toContain('href="javascript')
  })
})
