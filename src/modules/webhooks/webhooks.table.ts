// Tables of the webhooks domain.
export {}
