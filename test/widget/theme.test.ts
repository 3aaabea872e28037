import { describe, expect, it } from 'vitest'
import { DEFAULT_THEME, themeFrom, widgetCss } from '../../web/widget/theme'

describe('widget theme', () => {
  it('takes the settings route widget_theme as it is', () => {
    const t = themeFrom({ primary_color: '#aa0055', background_color: '#101010', text_color: '#fafafa', position: 'top-left', mode: 'dark', button_text: 'Found a bug?', background_image_url: '' })
    expect(t).toEqual({ primary_color: '#aa0055', background_color: '#101010', text_color: '#fafafa', position: 'top-left', mode: 'dark', button_text: 'Found a bug?' })
    const css = widgetCss(t)
    expect(css).toContain('top:20px;left:20px')
    expect(css).toContain('background:#aa0055')
  })

  it('falls back to the defaults for missing or malformed values, so nothing foreign reaches the CSS', () => {
    expect(themeFrom(null)).toEqual(DEFAULT_THEME)
    const t = themeFrom({ primary_color: 'red;}body{display:none', position: 'middle', mode: 'neon', button_text: '   ', text_color: '#12345' })
    expect(t).toEqual(DEFAULT_THEME)
    expect(widgetCss(t)).not.toContain('red;}body{')
    expect(themeFrom({ button_text: 'x'.repeat(80) }).button_text).toHaveLength(50)
  })
})
