// Tables of the notifications domain.
export {}
