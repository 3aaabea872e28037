// Tables of the public domain.
export {}
