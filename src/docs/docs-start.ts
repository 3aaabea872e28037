/**
 * The /docs page's own script, run in the browser before Scalar's bundle (served as /docs/assets/docs.js
 * from its source text, so it must not use anything outside its body).
 *
 * 1. Scalar adds its stylesheets as <style> elements at run time. The page's CSP admits inline styles only
 *    with this response's nonce (meta `glitchbox-style-nonce`), so every <style> element created gets it.
 * 2. Scalar 1.46 renders a few ARIA mistakes that axe rates critical; they are repaired as they appear:
 *    `aria-selected` on plain buttons (the sidebar; `aria-current` says the same there), a tablist holding
 *    a plain button and wrappers (the code-sample languages), `role="search"` on the search button, and
 *    the code blocks' copy buttons without a name; and a few it rates serious: "Show More" buttons whose
 *    name ("Show all Projects endpoints") does not contain their visible text, and the scrolling
 *    endpoint lists a keyboard cannot reach (they become focusable).
 * 3. The viewer starts on the page's container once the document is parsed.
 */
export function startDocs(config: Record<string, unknown>): void {
  const nonce = document.querySelector<HTMLMetaElement>('meta[name="glitchbox-style-nonce"]')?.content ?? ''
  const create = Document.prototype.createElement
  Document.prototype.createElement = function (this: Document, tag: string, options?: ElementCreationOptions) {
    const element = create.call(this, tag, options)
    if (tag.toLowerCase() === 'style') element.nonce = nonce
    return element
  } as typeof Document.prototype.createElement

  const repair = (root: HTMLElement) => {
    for (const button of root.querySelectorAll('button[aria-selected]:not([role="tab"]):not([role="option"])')) {
      if (button.getAttribute('aria-selected') === 'true') button.setAttribute('aria-current', 'true')
      else button.removeAttribute('aria-current')
      button.removeAttribute('aria-selected')
    }
    // The code-sample languages: featured ones are tabs, "More" picks any other and then stands for it.
    for (const more of root.querySelectorAll('[role="tablist"] button.client-libraries__select')) {
      if (more.getAttribute('role') !== 'tab') more.setAttribute('role', 'tab')
      const selected = String(more.classList.contains('client-libraries__active'))
      if (more.getAttribute('aria-selected') !== selected) more.setAttribute('aria-selected', selected)
    }
    for (const wrapper of root.querySelectorAll('[role="tablist"] :not([role="tab"], [role="none"]):has([role="tab"])')) wrapper.setAttribute('role', 'none')
    for (const button of root.querySelectorAll('button[role="search"]')) button.removeAttribute('role')
    for (const button of root.querySelectorAll('button.scalar-code-copy:not([aria-label])')) button.setAttribute('aria-label', 'Copy code')
    for (const button of root.querySelectorAll('button.show-more[aria-label]')) {
      const shown = button.textContent?.trim() ?? ''
      const label = button.getAttribute('aria-label') ?? ''
      if (shown && !label.toLowerCase().startsWith(shown.toLowerCase())) button.setAttribute('aria-label', `${shown}: ${label.replace(/^Show all /i, '')}`)
    }
    for (const list of root.querySelectorAll('ul.endpoints:not([tabindex])')) list.setAttribute('tabindex', '0')
  }

  document.addEventListener('DOMContentLoaded', () => {
    const root = document.getElementById('api-reference')!
    new MutationObserver(() => repair(root)).observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-selected', 'role', 'class', 'aria-label'] })
    ;(window as unknown as { Scalar: { createApiReference(el: HTMLElement, config: Record<string, unknown>): unknown } }).Scalar.createApiReference(root, config)
  })
}
