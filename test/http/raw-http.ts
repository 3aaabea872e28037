import { connect } from 'node:net'

export interface RawAnswer {
  status: number
  headers: Record<string, string>
  body: string
  /** Body bytes written to the socket before the answer came (or the server closed). */
  sent: number
}

/** Parses an HTTP/1.1 answer with a Content-Length (or none); null while it is incomplete. */
function parseAnswer(raw: Buffer, closed: boolean): Omit<RawAnswer, 'sent'> | null {
  const end = raw.indexOf('\r\n\r\n')
  if (end < 0) return null
  const [statusLine, ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n')
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  const length = headers['content-length'] === undefined ? null : Number(headers['content-length'])
  const body = raw.subarray(end + 4)
  if (length === null ? !closed : body.length < length) return null
  return { status: Number(statusLine!.split(' ')[1]), headers, body: body.subarray(0, length ?? body.length).toString('utf8') }
}

/**
 * Sends `head` (request line and headers, without the blank line) and then up to `total` bytes of
 * `Transfer-Encoding: chunked` body in `chunk`-byte pieces, stopping as soon as an answer arrives.
 */
export function chunkedRequest(port: number, head: string, total: number, chunk = 64 * 1024, fill = 'a', o: { pauseMsPerMb?: number } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    const received: Buffer[] = []
    let sent = 0
    let done = false
    const finish = (closed: boolean) => {
      if (done) return
      const answer = parseAnswer(Buffer.concat(received), closed)
      if (!answer) {
        if (closed) {
          done = true
          reject(new Error(`connection closed without an answer after ${sent} bytes`))
        }
        return
      }
      done = true
      socket.destroy()
      resolve({ ...answer, sent })
    }
    const piece = Buffer.concat([Buffer.from(`${chunk.toString(16)}\r\n`), Buffer.alloc(chunk, fill), Buffer.from('\r\n')])
    const pump = () => {
      while (!done && sent < total) {
        sent += chunk
        const wrote = socket.write(piece)
        // A client on a real network: the next megabyte after a pause (loopback takes 50 MB in a few ms).
        if (o.pauseMsPerMb && sent % (1024 * 1024) === 0) return void setTimeout(pump, o.pauseMsPerMb)
        if (!wrote) return void socket.once('drain', pump)
      }
      if (!done) socket.write('0\r\n\r\n')
    }
    socket.on('connect', () => {
      socket.write(`${head}\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n`)
      pump()
    })
    socket.on('data', (d: Buffer) => {
      received.push(d)
      finish(false)
    })
    socket.on('error', () => finish(true))
    socket.on('close', () => finish(true))
  })
}

/** Sends raw bytes (a whole request) and reads the answer. */
export function rawRequest(port: number, request: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    const received: Buffer[] = []
    let done = false
    const finish = (closed: boolean) => {
      if (done) return
      const answer = parseAnswer(Buffer.concat(received), closed)
      if (!answer) return closed ? ((done = true), reject(new Error('connection closed without an answer'))) : undefined
      done = true
      socket.destroy()
      resolve({ ...answer, sent: request.length })
    }
    socket.on('connect', () => socket.write(request))
    socket.on('data', (d: Buffer) => {
      received.push(d)
      finish(false)
    })
    socket.on('error', () => finish(true))
    socket.on('close', () => finish(true))
  })
}

/** Resident memory of a process in MB (Linux). */
export async function rssMb(pid: number): Promise<number> {
  const status = await Bun.file(`/proc/${pid}/status`).text()
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024
}
