// Tables of the settings domain.
export {}
