/** The report opened last in this tab, so the list puts its keyboard cursor back on it on return. */
export const lastOpened: { number: number | null } = { number: null }
