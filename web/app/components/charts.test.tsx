import { describe, expect, it } from 'vitest'
import { render } from 'preact-render-to-string'
import { BarChart } from './BarChart'
import { dayTick, valueTick, yRange } from './Chart'

describe('chart ticks', () => {
  it('reads days as "5 Jan" and values with their unit', () => {
    expect(dayTick(Date.parse('2026-01-05T00:00:00Z') / 1000)).toBe('5 Jan')
    expect([valueTick(95, '%'), valueTick(97.5, '%'), valueTick(1200), valueTick(25_000)]).toEqual(['95%', '97.5%', '1,200', '25k'])
  })
  it('puts one quantity on the y axis: percentages up to 100 from a round value below the lowest, counts from 0', () => {
    expect([yRange(88.4, 98.2, '%'), yRange(100, 100, '%'), yRange(12, 40, '%'), yRange(3, 150), yRange(null, null)]).toEqual([
      [85, 100],
      [90, 100],
      [10, 100],
      [0, 165],
      [0, 2],
    ])
  })
})

describe('BarChart', () => {
  it('draws one bar per row from zero, in the order given, as a table with the value in words', () => {
    const html = render(
      <BarChart
        title="Crash-free sessions by version"
        label="Version"
        max={100}
        rows={[
          { label: '1.3.0', value: 96, text: '96.0%' },
          { label: '1.3.0-beta', value: 88.4, text: '88.4%' },
          { label: '0.9.0', value: null, text: 'no ended sessions' },
        ]}
      />,
    )
    expect([...html.matchAll(/<th scope="row">([^<]+)<\/th>/g)].map((m) => m[1])).toEqual(['1.3.0', '1.3.0-beta', '0.9.0'])
    expect([...html.matchAll(/width:\s*([\d.]+)%/g)].map((m) => Number(m[1]))).toEqual([96, 88.4, 0])
    expect(html).toContain('<caption class="sr-only">Crash-free sessions by version</caption>')
    expect(html).toContain('no ended sessions')
  })
})
