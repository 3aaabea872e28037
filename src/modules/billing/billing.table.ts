// Tables of the billing domain.
export {}
