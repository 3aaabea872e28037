/** `0x7ff6a1b2c3d4`: addresses, offsets and sizes as the parser reports them (lower case, no padding). */
export const hex = (n: bigint | number) => `0x${n.toString(16)}`

/** `0x0000000b`: 32-bit codes as crash tools print them. */
export const hex8 = (n: number) => `0x${(n >>> 0).toString(16).padStart(8, '0')}`
