/** The widget theme from `GET /api/bugs/settings` (`widget_theme`), with defaults for anything missing or malformed. */
export interface WidgetTheme {
  primary_color: string
  background_color: string
  text_color: string
  position: 'bottom-right' | 'bottom-left' | 'top-right' | 'top-left'
  mode: 'light' | 'dark'
  button_text: string
}

export const DEFAULT_THEME: WidgetTheme = {
  primary_color: '#2E5BFF',
  background_color: '#FFFFFF',
  text_color: '#1A1A1A',
  position: 'bottom-right',
  mode: 'light',
  button_text: 'Report a bug',
}

const HEX = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/
const POSITIONS = ['bottom-right', 'bottom-left', 'top-right', 'top-left']

/** Keeps only well-formed values: the theme ends up in CSS, so a color must be a color. */
export function themeFrom(raw: unknown): WidgetTheme {
  const r = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>
  const color = (k: 'primary_color' | 'background_color' | 'text_color') => (typeof r[k] === 'string' && HEX.test(r[k] as string) ? (r[k] as string) : DEFAULT_THEME[k])
  return {
    primary_color: color('primary_color'),
    background_color: color('background_color'),
    text_color: color('text_color'),
    position: POSITIONS.includes(r.position as string) ? (r.position as WidgetTheme['position']) : DEFAULT_THEME.position,
    mode: r.mode === 'dark' ? 'dark' : 'light',
    button_text: typeof r.button_text === 'string' && r.button_text.trim() ? r.button_text.slice(0, 50) : DEFAULT_THEME.button_text,
  }
}

/** The widget's stylesheet, scoped to its shadow root. */
export function widgetCss(t: WidgetTheme): string {
  const [v, h] = t.position.split('-') as [string, string]
  const muted = t.mode === 'dark' ? '#b8bcc8' : '#555a66'
  const border = t.mode === 'dark' ? '#454a57' : '#c5c8d0'
  return `
:host{all:initial}
*{box-sizing:border-box;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
.launcher{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;position:fixed;${v}:20px;${h}:20px;z-index:2147483646;background:${t.primary_color};color:#fff;border:0;border-radius:999px;padding:10px 18px;font-size:15px;font-weight:600;cursor:pointer;box-shadow:0 2px 10px rgba(0,0,0,.3)}
.backdrop{position:fixed;inset:0;z-index:2147483647;background:rgba(0,0,0,.45);display:flex;align-items:center;justify-content:center;padding:12px}
.backdrop[hidden]{display:none}
.dialog{background:${t.background_color};color:${t.text_color};width:100%;max-width:440px;max-height:100%;overflow:auto;border-radius:10px;padding:18px 20px;box-shadow:0 10px 40px rgba(0,0,0,.4);font-size:15px;line-height:1.45}
h2{margin:0 0 12px;font-size:19px}
label{display:block;font-weight:600;font-size:13px;margin:10px 0 3px}
input,select,textarea{width:100%;font:inherit;font-size:15px;color:${t.text_color};background:${t.background_color};border:1px solid ${border};border-radius:6px;padding:7px 9px}
textarea{min-height:110px;resize:vertical}
.hint{color:${muted};font-size:12px;margin:4px 0 0}
.row{display:flex;gap:8px;justify-content:flex-end;margin-top:16px}
button{font:inherit;font-size:15px;border-radius:6px;padding:8px 14px;cursor:pointer}
.primary{background:${t.primary_color};color:#fff;border:0}
.secondary{background:transparent;color:${t.text_color};border:1px solid ${border}}
.error{color:${t.mode === 'dark' ? '#ff8a80' : '#b71c1c'};margin:10px 0 0}
:focus-visible{outline:3px solid ${t.primary_color};outline-offset:2px}
button:disabled{opacity:.6;cursor:default}
.shot{margin:12px 0 0;display:flex;gap:10px;align-items:center}
.shot img{width:120px;max-height:90px;object-fit:cover;border:1px solid ${border};border-radius:6px}
.shot button{font-size:13px;padding:5px 10px}
.suggest ul{list-style:none;margin:4px 0 0;padding:0}
.suggest li{display:flex;gap:8px;align-items:center;justify-content:space-between;padding:4px 0;border-top:1px solid ${border}}
.suggest a{color:${t.text_color}}
.suggest button{font-size:13px;padding:4px 10px;white-space:nowrap}
`
}
