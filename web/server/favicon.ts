/**
 * The icon browsers ask every site for at `/favicon.ico`: a 32×32 violet tile with three offset
 * white bars (a glitch), drawn here as a Windows icon (one 32-bit bitmap) so the binary needs no
 * image file and every page (dashboard, public pages, docs) gets it without a `<link>`.
 */

const SIZE = 32
const TILE: [number, number, number] = [0x5b, 0x3f, 0xd1]
/** The glitch bars: [top row, bottom row, first column, last column], inclusive. */
const BARS = [
  [8, 11, 7, 22],
  [14, 17, 11, 25],
  [20, 23, 7, 19],
]

/** RGBA of the pixel at column x, row y (from the top): the tile with rounded corners, white bars on it. */
function pixel(x: number, y: number): [number, number, number, number] {
  const r = 6
  const dx = Math.max(r - x, x - (SIZE - 1 - r), 0)
  const dy = Math.max(r - y, y - (SIZE - 1 - r), 0)
  if (dx * dx + dy * dy > r * r) return [0, 0, 0, 0]
  if (BARS.some(([top, bottom, left, right]) => y >= top! && y <= bottom! && x >= left! && x <= right!)) return [255, 255, 255, 255]
  return [...TILE, 255]
}

function build(): Uint8Array<ArrayBuffer> {
  const pixels = SIZE * SIZE * 4
  const mask = (SIZE / 8) * SIZE // 1 bit per pixel, rows already a multiple of 4 bytes; all 0: alpha decides
  const image = 40 + pixels + mask
  const bytes = new Uint8Array(6 + 16 + image)
  const v = new DataView(bytes.buffer)
  v.setUint16(2, 1, true) // type: icon
  v.setUint16(4, 1, true) // one image
  bytes[6] = SIZE
  bytes[7] = SIZE
  v.setUint16(10, 1, true) // planes
  v.setUint16(12, 32, true) // bits per pixel
  v.setUint32(14, image, true)
  v.setUint32(18, 22, true) // offset of the image
  v.setUint32(22, 40, true) // BITMAPINFOHEADER
  v.setInt32(26, SIZE, true)
  v.setInt32(30, SIZE * 2, true) // colour rows and mask rows
  v.setUint16(34, 1, true)
  v.setUint16(36, 32, true)
  v.setUint32(42, pixels + mask, true)
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      const [r, g, b, a] = pixel(x, y)
      // Bottom-up rows, BGRA.
      bytes.set([b, g, r, a], 62 + ((SIZE - 1 - y) * SIZE + x) * 4)
    }
  }
  return bytes
}

/** The icon's bytes (image/x-icon), drawn once. */
export const FAVICON = build()
