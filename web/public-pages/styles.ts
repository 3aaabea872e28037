/**
 * The public pages' stylesheet, inlined in each page (allowed by its hash in the CSP). Colors come
 * from the project's branding; they are validated `#rgb`/`#rrggbb` values, so they cannot break out.
 */

const HEX = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/
const DEFAULT_ACCENT = '#2e5bff'

/** `color` when it is a hex color, else `fallback`. */
export const safeColor = (color: string | undefined, fallback = DEFAULT_ACCENT): string => (color && HEX.test(color) ? color : fallback)

const BASE = `
:root{color-scheme:light dark;--bg:#f7f7f9;--card:#fff;--fg:#17181c;--muted:#555a66;--line:#d9dbe1;--focus:#1d4ed8}
@media (prefers-color-scheme:dark){:root{--bg:#121317;--card:#1c1e24;--fg:#eceef3;--muted:#a9aebb;--line:#343844;--focus:#93b4ff}}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--fg)}
a{color:var(--link)}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible,summary:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:var(--card);padding:8px;z-index:2}
header.site{background:var(--card);border-bottom:3px solid var(--accent)}
header.site .in,main,footer.site{max-width:960px;margin:0 auto;padding:12px 16px}
header.site .in{display:flex;align-items:center;gap:12px;flex-wrap:wrap}
header.site img{height:40px;width:auto}
header.site .brand{font-weight:700;font-size:1.1rem;color:var(--fg);text-decoration:none}
header.site nav{margin-left:auto;display:flex;gap:12px;flex-wrap:wrap}
h1{font-size:1.6rem;margin:.5em 0 .25em}
.lead{color:var(--muted);margin-top:0}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:12px 16px;margin:10px 0}
.reports{list-style:none;padding:0;margin:0}
.report{display:flex;gap:12px;align-items:flex-start}
.report .body{flex:1;min-width:0}
.report h2,.report h3{font-size:1.05rem;margin:0 0 4px;overflow-wrap:anywhere}
.meta{color:var(--muted);font-size:.875rem;display:flex;gap:10px;flex-wrap:wrap}
.tag{border:1px solid var(--line);border-radius:999px;padding:0 8px}
.vote{display:flex;flex-direction:column;align-items:center;min-width:56px;padding:6px 8px;border:1px solid var(--line);border-radius:8px;background:var(--card);color:var(--fg);font:inherit;cursor:pointer}
.vote[aria-pressed=true]{background:var(--accent);border-color:var(--accent);color:var(--on-accent);cursor:default}
.votes{display:flex;flex-direction:column;align-items:center;min-width:56px;color:var(--muted)}
.count{font-weight:700}
form.filters{display:flex;gap:10px;flex-wrap:wrap;align-items:flex-end}
label{display:block;font-size:.875rem;font-weight:600;margin-bottom:2px}
input,select,textarea{font:inherit;color:var(--fg);background:var(--card);border:1px solid var(--muted);border-radius:6px;padding:6px 8px;max-width:100%}
textarea{width:100%;min-height:8em}
.field{margin:0 0 12px}
.field input[type=text],.field input[type=email]{width:100%}
.btn{font:inherit;background:var(--accent);color:var(--on-accent);border:0;border-radius:6px;padding:7px 14px;cursor:pointer;text-decoration:none;display:inline-block}
.pager{display:flex;justify-content:space-between;align-items:center;gap:10px;margin:16px 0}
.desc{white-space:pre-wrap;overflow-wrap:anywhere}
.comments{list-style:none;padding:0}
.error{border-color:#c62828}
.columns{display:grid;grid-template-columns:repeat(auto-fit,minmax(240px,1fr));gap:12px}
.columns section{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:8px 12px}
.columns h2{font-size:1.1rem;margin:4px 0 8px}
.entry .md{overflow-wrap:anywhere}.entry .md pre{overflow:auto}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
hgroup h1{margin-bottom:0}.subtitle{color:var(--muted);font-weight:600;margin:0 0 .5em}
.column-tabs{display:none}
.suggestions{border:1px solid var(--line);border-radius:8px;padding:8px 12px;margin:0 0 12px}
.suggestions h2{font-size:1rem;margin:0}.suggestions ul{list-style:none;padding:0;margin:6px 0 0}
.suggestions li{display:flex;gap:8px;align-items:center;justify-content:space-between;flex-wrap:wrap;padding:6px 0;border-top:1px solid var(--line)}
@media (max-width:600px){h1{font-size:1.35rem}.report{gap:8px}.vote,.votes{min-width:44px}
.column-tabs{display:flex;overflow-x:auto;border-bottom:1px solid var(--line);margin:8px 0}
.column-tabs a{padding:10px 12px;white-space:nowrap;text-decoration:none;border-bottom:3px solid transparent}
.column-tabs a[aria-current=page]{border-bottom-color:var(--accent);font-weight:700}
.columns .column:not(.current){display:none}}
`

/** Picks black or white text, whichever reads better on `hex`. */
function textOn(hex: string): string {
  const h = hex.length === 4 ? hex.replace(/[0-9a-f]/gi, (c) => c + c).slice(1) : hex.slice(1)
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
  const lum = 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
  return lum > 0.179 ? '#000' : '#fff'
}

/** The stylesheet of a page themed with `accent`. Links use the theme's own colors in dark mode, so they stay readable. */
export function pageStyles(accent: string): string {
  const a = safeColor(accent)
  return `:root{--accent:${a};--on-accent:${textOn(a)};--link:#1a47c9}@media (prefers-color-scheme:dark){:root{--link:#9bb8ff}}${BASE}`
}

/** The tracker's custom CSS (validated on save), made unable to close its <style> element whatever it holds. */
export const safeCustomCss = (css: string): string => css.replace(/<\/(style)/gi, '<\\/$1')
