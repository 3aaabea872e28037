// Tables of the changelog domain.
export {}
