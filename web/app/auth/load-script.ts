const loading = new Map<string, Promise<void>>()

/** Loads a third-party script once (the sign-in providers' SDKs); rejects when it cannot be fetched. */
export function loadScript(src: string): Promise<void> {
  let p = loading.get(src)
  if (!p) {
    p = new Promise<void>((resolve, reject) => {
      const el = document.createElement('script')
      el.src = src
      el.async = true
      el.onload = () => resolve()
      el.onerror = () => {
        loading.delete(src)
        el.remove()
        reject(new Error(`could not load ${new URL(src).host}`))
      }
      document.head.appendChild(el)
    })
    loading.set(src, p)
  }
  return p
}
