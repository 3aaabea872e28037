// `together` (src/db/together.ts): a write's independent statements, waited for as one. A write rolls
// back on its first failure, so none of its statements may still be running then, and the failure it
// reports must be the cause (the first in call order), not a statement the failed transaction refused.
import { describe, expect, it } from 'vitest'
import { together } from '../../src/db/together'

const after = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms))
const failAfter = (ms: number, message: string) => new Promise<never>((_, reject) => setTimeout(() => reject(new Error(message)), ms))

describe('together', () => {
  it('answers every result in call order, whichever settles first', async () => {
    expect(await together([after(20, 'first'), after(1, 'second'), Promise.resolve(3)] as const)).toEqual(['first', 'second', 3])
  })

  it('answers an empty list with no results', async () => {
    expect(await together([])).toEqual([])
  })

  it('waits for every statement before it throws, so none still runs when the write rolls back', async () => {
    let slowDone = false
    const slow = after(30, 'slow').then((v) => {
      slowDone = true
      return v
    })
    await expect(together([failAfter(1, 'cause'), slow])).rejects.toThrow('cause')
    expect(slowDone).toBe(true)
  })

  it('throws the first failure in call order, not the first in time', async () => {
    await expect(together([failAfter(25, 'the cause'), failAfter(1, 'refused after it')])).rejects.toThrow('the cause')
  })
})
