// Tables of the sdk domain.
export {}
