// Tables of the team domain.
export {}
