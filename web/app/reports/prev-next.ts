/** The report numbers of one list page, in list order, and where that page sits. */
export interface ListPageNumbers {
  numbers: readonly number[]
  page: number
  totalPages: number
}

/** A neighbour of the current report: known (`number`), or the first/last report of an adjacent page still to be read. */
export type Neighbour = { number: number; page: number } | { page: number; pick: 'first' | 'last' }

export interface Neighbours {
  prev: Neighbour | null
  next: Neighbour | null
  /** 0-based index of the current report on its page, or -1 when the report is not (or no longer) in the list. */
  index: number
}

/** The previous and next report of `current` in the list order, crossing page edges. */
export function neighbours(list: ListPageNumbers, current: number): Neighbours {
  const index = list.numbers.indexOf(current)
  if (index === -1) return { prev: null, next: null, index }
  const prev: Neighbour | null =
    index > 0 ? { number: list.numbers[index - 1]!, page: list.page } : list.page > 1 ? { page: list.page - 1, pick: 'last' } : null
  const next: Neighbour | null =
    index < list.numbers.length - 1
      ? { number: list.numbers[index + 1]!, page: list.page }
      : list.page < list.totalPages
        ? { page: list.page + 1, pick: 'first' }
        : null
  return { prev, next, index }
}

/** A neighbour as a report number and the list page it is on; reads the adjacent page when needed (null when it is empty). */
export async function resolveNeighbour(
  n: Neighbour | null,
  readPage: (page: number) => Promise<readonly number[]>,
): Promise<{ number: number; page: number } | null> {
  if (n === null) return null
  if ('number' in n) return n
  const numbers = await readPage(n.page)
  const number = n.pick === 'first' ? numbers[0] : numbers.at(-1)
  return number === undefined ? null : { number, page: n.page }
}
