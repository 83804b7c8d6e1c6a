// The hosted Link page's stylesheet, inlined into the page (no external assets; the CSP allows only
// this nonce'd <style>). One card, system fonts, visible focus rings, reduced motion respected.

export const LINK_CSS = `
:root {
  --fc-bg: #eef2f7;
  --fc-card: #ffffff;
  --fc-text: #0f172a;
  --fc-muted: #526075;
  --fc-border: #d5dce6;
  --fc-brand: #4338ca;
  --fc-brand-dark: #3730a3;
  --fc-ring: #818cf8;
  --fc-danger-bg: #fef2f2;
  --fc-danger-border: #fecaca;
  --fc-danger: #991b1b;
  --fc-ok: #15803d;
  --fc-radius: 12px;
  color-scheme: light;
}
* { box-sizing: border-box; }
html, body { margin: 0; padding: 0; }
body {
  min-height: 100vh;
  background: var(--fc-bg);
  color: var(--fc-text);
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  -webkit-font-smoothing: antialiased;
  display: flex;
  align-items: flex-start;
  justify-content: center;
}
body.embed { background: var(--fc-card); }
.card {
  width: 100%;
  max-width: 420px;
  min-height: 600px;
  margin: 40px 16px;
  background: var(--fc-card);
  border-radius: 20px;
  box-shadow: 0 1px 2px rgba(15, 23, 42, .06), 0 12px 32px rgba(15, 23, 42, .10);
  padding: 24px 28px 28px;
  display: flex;
  flex-direction: column;
}
body.embed .card { margin: 0; max-width: none; min-height: 100vh; border-radius: 0; box-shadow: none; }
@media (max-width: 480px) {
  .card { margin: 0; min-height: 100vh; border-radius: 0; box-shadow: none; }
}
.brand { display: flex; align-items: center; gap: 10px; margin-bottom: 28px; font-weight: 600; letter-spacing: .01em; }
.logo {
  width: 28px; height: 28px; border-radius: 8px;
  background: linear-gradient(135deg, #6366f1, #0ea5e9);
  display: inline-flex; align-items: center; justify-content: center;
  color: #fff; font-size: 15px; font-weight: 700;
}
.pill {
  margin-left: auto; font-size: 12px; font-weight: 600; color: #92400e;
  background: #fef3c7; border: 1px solid #fde68a; border-radius: 999px; padding: 2px 10px;
}
main { flex: 1; display: flex; flex-direction: column; }
.screen { flex: 1; display: flex; flex-direction: column; }
h1 { font-size: 22px; line-height: 1.3; font-weight: 650; margin: 0 0 10px; }
h1:focus { outline: none; }
p { margin: 0 0 14px; color: var(--fc-muted); }
.lead { font-size: 15px; }
.icon { width: 52px; height: 52px; border-radius: 50%; display: flex; align-items: center; justify-content: center; margin-bottom: 18px; }
.icon svg { width: 28px; height: 28px; }
.icon.ok { background: #dcfce7; color: var(--fc-ok); }
.icon.warn { background: var(--fc-danger-bg); color: var(--fc-danger); }
.icon.info { background: #e0e7ff; color: var(--fc-brand); }
.points { list-style: none; padding: 0; margin: 8px 0 20px; display: grid; gap: 14px; }
.points li { display: grid; grid-template-columns: 28px 1fr; gap: 10px; }
.points strong { display: block; color: var(--fc-text); font-weight: 600; }
.points span { color: var(--fc-muted); font-size: 14px; }
.dot { width: 28px; height: 28px; border-radius: 50%; background: #eef2ff; color: var(--fc-brand); display: flex; align-items: center; justify-content: center; font-size: 14px; font-weight: 700; }
.spacer { flex: 1; min-height: 16px; }
.actions { display: grid; gap: 10px; margin-top: 16px; }
button {
  font: inherit; cursor: pointer; border-radius: var(--fc-radius); border: 1px solid transparent;
  padding: 12px 16px; font-weight: 600; transition: background-color .15s, border-color .15s, box-shadow .15s;
}
button:focus-visible, input:focus-visible, select:focus-visible { outline: 3px solid var(--fc-ring); outline-offset: 2px; }
.primary { background: var(--fc-brand); color: #fff; width: 100%; }
.primary:hover { background: var(--fc-brand-dark); }
.primary[aria-disabled="true"] { background: #818cf8; cursor: progress; }
.secondary { background: transparent; color: var(--fc-text); border-color: var(--fc-border); width: 100%; }
.secondary:hover { background: #f8fafc; }
.field { display: grid; gap: 6px; margin-bottom: 14px; }
label { font-size: 13px; font-weight: 600; color: var(--fc-text); }
input, select {
  font: inherit; color: var(--fc-text); background: #fff; width: 100%;
  border: 1px solid var(--fc-border); border-radius: var(--fc-radius); padding: 11px 12px;
}
input:focus, select:focus { border-color: var(--fc-brand); }
.filters { display: grid; grid-template-columns: 1fr 1fr; gap: 10px; }
.hint { font-size: 13px; color: var(--fc-muted); background: #f8fafc; border: 1px dashed var(--fc-border); border-radius: 10px; padding: 8px 12px; margin: 0 0 14px; }
.alert { background: var(--fc-danger-bg); border: 1px solid var(--fc-danger-border); color: var(--fc-danger); border-radius: 10px; padding: 10px 12px; margin: 0 0 14px; font-size: 14px; }
.alert:empty { display: none; }
.status { font-size: 13px; color: var(--fc-muted); margin: 2px 0 8px; min-height: 1.5em; }
.results {
  list-style: none; display: grid; grid-template-columns: minmax(0, 1fr); gap: 6px;
  overflow-y: auto; max-height: 340px; margin: -6px -6px 0; padding: 6px; /* room for focus rings */
}
.results li { min-width: 0; }
.results button {
  width: 100%; display: flex; align-items: center; gap: 12px; text-align: left;
  background: #fff; color: var(--fc-text); border-color: var(--fc-border); padding: 10px 12px; font-weight: 500;
}
.results button:hover { border-color: var(--fc-brand); background: #f8faff; }
.avatar { flex: none; width: 34px; height: 34px; border-radius: 50%; display: flex; align-items: center; justify-content: center; color: #fff; font-weight: 700; background: #64748b; }
.inst-text { display: flex; flex-direction: column; min-width: 0; }
.inst-name { font-weight: 600; }
.inst-sub { font-size: 12px; color: var(--fc-muted); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.chip { display: inline-flex; align-items: center; gap: 8px; font-weight: 600; margin-bottom: 16px; }
.accounts { list-style: none; padding: 0; margin: 4px 0 16px; border: 1px solid var(--fc-border); border-radius: var(--fc-radius); }
.accounts li { display: flex; justify-content: space-between; padding: 10px 14px; border-top: 1px solid var(--fc-border); font-size: 14px; }
.accounts li:first-child { border-top: 0; }
.accounts .mask { color: var(--fc-muted); }
.code { font-size: 12px; color: var(--fc-muted); }
.footer { margin-top: 18px; font-size: 12px; color: var(--fc-muted); text-align: center; }
.sr-only { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
@media (prefers-reduced-motion: reduce) { * { transition: none !important; animation: none !important; } }
`;
