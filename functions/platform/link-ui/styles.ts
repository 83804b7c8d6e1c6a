// The hosted Link page's stylesheet, inlined into the page (no external assets; the CSP allows only
// this nonce'd <style>). One card, system fonts, visible focus rings, reduced motion respected.
// Colours are custom properties with a light and a dark set (prefers-color-scheme); every text
// colour keeps WCAG AA contrast (4.5:1) on the surface it is used on, in both themes.

export const LINK_CSS = `
:root {
  --fc-bg: #eef2f7;
  --fc-card: #ffffff;
  --fc-surface: #f8fafc;
  --fc-hover: #f1f5ff;
  --fc-text: #0f172a;
  --fc-muted: #4b5a6e;
  --fc-border: #cfd7e3;
  --fc-brand: #4338ca;
  --fc-brand-hover: #3730a3;
  --fc-on-brand: #ffffff;
  --fc-brand-soft: #e0e7ff;
  --fc-brand-busy: #6d68d8;
  --fc-ring: #6366f1;
  --fc-track: #e2e8f0;
  --fc-danger-bg: #fef2f2;
  --fc-danger-border: #fecaca;
  --fc-danger: #991b1b;
  --fc-ok: #15803d;
  --fc-ok-bg: #dcfce7;
  --fc-pill-bg: #fef3c7;
  --fc-pill-border: #fde68a;
  --fc-pill-text: #92400e;
  --fc-avatar-ring: transparent;
  --fc-shadow: 0 1px 2px rgba(15, 23, 42, .06), 0 12px 32px rgba(15, 23, 42, .10);
  --fc-radius: 12px;
  color-scheme: light;
}
@media (prefers-color-scheme: dark) {
  :root {
    --fc-bg: #0b1120;
    --fc-card: #131b2e;
    --fc-surface: #0f172a;
    --fc-hover: #1c2640;
    --fc-text: #e8edf5;
    --fc-muted: #a3b0c2;
    --fc-border: #334155;
    --fc-brand: #a5b4fc;
    --fc-brand-hover: #c7d2fe;
    --fc-on-brand: #111433;
    --fc-brand-soft: #262a5c;
    --fc-brand-busy: #7c86c9;
    --fc-ring: #a5b4fc;
    --fc-track: #263149;
    --fc-danger-bg: #3a1216;
    --fc-danger-border: #7f1d1d;
    --fc-danger: #fecaca;
    --fc-ok: #86efac;
    --fc-ok-bg: #14391f;
    --fc-pill-bg: #3d2a05;
    --fc-pill-border: #78520b;
    --fc-pill-text: #fcd34d;
    /* Institution colours are chosen for light pages: a ring keeps a dark one from melting into the card. */
    --fc-avatar-ring: rgba(255, 255, 255, .22);
    --fc-shadow: 0 1px 2px rgba(0, 0, 0, .4), 0 12px 32px rgba(0, 0, 0, .45);
    color-scheme: dark;
  }
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
  box-shadow: var(--fc-shadow);
  padding: 16px 28px 20px;
  display: flex;
  flex-direction: column;
}
body.embed .card { margin: 0; max-width: none; min-height: 100vh; border-radius: 0; box-shadow: none; }
@media (max-width: 480px) {
  .card { margin: 0; min-height: 100vh; border-radius: 0; box-shadow: none; padding: 12px 20px 16px; }
  /* The header keeps room for Back in every language: the wordmark is left to screen readers. */
  .brand-name { position: absolute; width: 1px; height: 1px; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  .topbar { gap: 4px; }
  .nav-back { padding: 6px 4px; }
}
.topbar { display: grid; grid-template-columns: minmax(0, 1fr) auto minmax(0, 1fr); align-items: center; gap: 8px; min-height: 44px; margin-bottom: 20px; }
.topbar-start { display: flex; justify-content: flex-start; min-width: 0; }
.topbar-end { display: flex; justify-content: flex-end; }
.brand { display: flex; align-items: center; gap: 8px; font-weight: 600; letter-spacing: .01em; }
.logo {
  width: 26px; height: 26px; border-radius: 8px;
  background: linear-gradient(135deg, #6366f1, #0ea5e9);
  display: inline-flex; align-items: center; justify-content: center;
  color: #fff; font-size: 14px; font-weight: 700;
}
.pill {
  font-size: 12px; font-weight: 600; color: var(--fc-pill-text);
  background: var(--fc-pill-bg); border: 1px solid var(--fc-pill-border); border-radius: 999px; padding: 1px 8px;
}
.nav-back, .nav-close {
  display: inline-flex; align-items: center; gap: 2px; min-height: 40px; padding: 6px 8px;
  background: transparent; color: var(--fc-text); border-color: transparent; font-weight: 600;
}
.nav-back { margin-left: -8px; max-width: 100%; }
.nav-back span:last-child { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.nav-close { width: 40px; justify-content: center; margin-right: -8px; padding: 6px; }
.nav-back:hover, .nav-close:hover { background: var(--fc-hover); }
.nav-icon { display: inline-flex; }
.nav-icon svg { width: 20px; height: 20px; }
.nav-close[hidden] { display: none; }
main { flex: 1; display: flex; flex-direction: column; min-height: 0; }
.screen { flex: 1; display: flex; flex-direction: column; min-height: 0; }
h1 { font-size: 22px; line-height: 1.3; font-weight: 650; margin: 0 0 10px; overflow-wrap: anywhere; }
h1:focus { outline: none; }
p { margin: 0 0 14px; color: var(--fc-muted); }
.lead { font-size: 15px; }
.icon { width: 52px; height: 52px; border-radius: 50%; display: flex; align-items: center; justify-content: center; margin-bottom: 18px; flex: none; }
.icon svg { width: 28px; height: 28px; }
.icon.ok { background: var(--fc-ok-bg); color: var(--fc-ok); }
.icon.warn { background: var(--fc-danger-bg); color: var(--fc-danger); }
.icon.info { background: var(--fc-brand-soft); color: var(--fc-brand); }
.points { list-style: none; padding: 0; margin: 8px 0 20px; display: grid; gap: 14px; }
.points li { display: grid; grid-template-columns: 28px 1fr; gap: 10px; }
.points strong { display: block; color: var(--fc-text); font-weight: 600; }
.points span { color: var(--fc-muted); font-size: 14px; }
.dot { width: 28px; height: 28px; border-radius: 50%; background: var(--fc-brand-soft); color: var(--fc-brand); display: flex; align-items: center; justify-content: center; font-size: 14px; font-weight: 700; }
.spacer { flex: 1; min-height: 16px; }
.actions { display: grid; gap: 10px; margin-top: 16px; }
button {
  font: inherit; cursor: pointer; border-radius: var(--fc-radius); border: 1px solid transparent;
  padding: 12px 16px; font-weight: 600; transition: background-color .15s, border-color .15s, box-shadow .15s;
}
button:focus-visible, input:focus-visible, select:focus-visible { outline: 3px solid var(--fc-ring); outline-offset: 2px; }
.primary { background: var(--fc-brand); color: var(--fc-on-brand); width: 100%; }
.primary:hover { background: var(--fc-brand-hover); }
.primary[aria-disabled="true"] { background: var(--fc-brand-busy); cursor: progress; }
.secondary { background: transparent; color: var(--fc-text); border-color: var(--fc-border); width: 100%; }
.secondary:hover { background: var(--fc-hover); }
.link { background: transparent; color: var(--fc-muted); padding: 8px 12px; font-size: 14px; text-decoration: underline; text-underline-offset: 3px; }
.link:hover { color: var(--fc-text); }
/* Exit closes every pane at the same place: the bottom of the card. */
.pane-exit { display: flex; justify-content: center; margin-top: auto; padding-top: 12px; flex: none; }
.field { display: grid; gap: 6px; margin-bottom: 14px; }
label { font-size: 13px; font-weight: 600; color: var(--fc-text); }
input, select {
  font: inherit; color: var(--fc-text); background: var(--fc-card); width: 100%; min-width: 0;
  border: 1px solid var(--fc-border); border-radius: var(--fc-radius); padding: 11px 12px;
}
input::placeholder { color: var(--fc-muted); opacity: 1; }
input:focus, select:focus { border-color: var(--fc-brand); }
.filters { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 10px; }
.hint { font-size: 13px; color: var(--fc-muted); background: var(--fc-surface); border: 1px dashed var(--fc-border); border-radius: 10px; padding: 8px 12px; margin: 0 0 14px; }
.alert { background: var(--fc-danger-bg); border: 1px solid var(--fc-danger-border); color: var(--fc-danger); border-radius: 10px; padding: 10px 12px; margin: 0 0 14px; font-size: 14px; }
.alert:empty { display: none; }
.status { font-size: 13px; color: var(--fc-muted); margin: 2px 0 8px; min-height: 1.5em; }
.results {
  list-style: none; display: grid; grid-template-columns: minmax(0, 1fr); align-content: start; gap: 6px;
  overflow-y: auto; max-height: 340px; margin: -6px -6px 0; padding: 6px; /* room for focus rings */
}
.results li { min-width: 0; }
.results button {
  width: 100%; display: flex; align-items: center; gap: 12px; text-align: left;
  background: var(--fc-card); color: var(--fc-text); border-color: var(--fc-border); padding: 10px 12px; font-weight: 500;
}
.results button:hover { border-color: var(--fc-brand); background: var(--fc-hover); }
/* Phones: the institution list takes the rest of the screen and scrolls inside it; the search stays put. */
@media (max-width: 480px) {
  body[data-view="SELECT_INSTITUTION"] .card { height: 100vh; height: 100dvh; min-height: 0; }
  body[data-view="SELECT_INSTITUTION"] .results { flex: 1 1 0; max-height: none; min-height: 120px; }
}
.avatar {
  position: relative; flex: none; width: 34px; height: 34px; border-radius: 10px; overflow: hidden;
  display: flex; align-items: center; justify-content: center;
  color: #fff; font-weight: 700; background: #64748b; box-shadow: 0 0 0 1px var(--fc-avatar-ring);
}
.avatar.on-light { color: #111827; }
.avatar.has-logo .monogram { visibility: hidden; }
.logo-img { position: absolute; inset: 0; width: 100%; height: 100%; display: block; }
.inst-text { display: flex; flex-direction: column; min-width: 0; }
.inst-name { font-weight: 600; }
.inst-sub { font-size: 12px; color: var(--fc-muted); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.chip { display: inline-flex; align-items: center; gap: 10px; font-weight: 600; margin-bottom: 16px; }
.accounts { list-style: none; padding: 0; margin: 4px 0 16px; border: 1px solid var(--fc-border); border-radius: var(--fc-radius); }
.accounts li { display: flex; justify-content: space-between; gap: 12px; padding: 10px 14px; border-top: 1px solid var(--fc-border); font-size: 14px; }
.accounts li:first-child { border-top: 0; }
.accounts .mask { color: var(--fc-muted); white-space: nowrap; }
.progress { height: 6px; border-radius: 999px; background: var(--fc-track); overflow: hidden; margin: 8px 0 22px; }
.progress-fill { display: block; height: 100%; width: calc(var(--fc-progress, 0) * 100%); background: var(--fc-brand); border-radius: inherit; transition: width .4s ease; }
.steps { list-style: none; padding: 0; margin: 0 0 16px; display: grid; gap: 14px; }
.step { display: grid; grid-template-columns: 22px 1fr; gap: 12px; align-items: center; color: var(--fc-muted); }
.step.current { color: var(--fc-text); font-weight: 600; }
.step.done { color: var(--fc-text); }
.step-mark { width: 22px; height: 22px; border-radius: 50%; border: 2px solid var(--fc-border); position: relative; }
.step.done .step-mark { background: var(--fc-brand); border-color: var(--fc-brand); }
.step.done .step-mark::after {
  content: ""; position: absolute; left: 6px; top: 2px; width: 5px; height: 10px;
  border: solid var(--fc-on-brand); border-width: 0 2px 2px 0; transform: rotate(45deg);
}
.step.current .step-mark { border-color: var(--fc-brand); border-right-color: transparent; animation: fc-spin .9s linear infinite; }
@keyframes fc-spin { to { transform: rotate(360deg); } }
.code { font-size: 12px; color: var(--fc-muted); overflow-wrap: anywhere; }
.footer { margin-top: 18px; font-size: 12px; color: var(--fc-muted); text-align: center; }
.sr-only { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
@media (prefers-reduced-motion: reduce) {
  * { transition: none !important; animation: none !important; }
  /* Without the spin, the step in progress is a ring with a dot. */
  .step.current .step-mark { border-right-color: var(--fc-brand); }
  .step.current .step-mark::after { content: ""; position: absolute; inset: 4px; border-radius: 50%; background: var(--fc-brand); }
}
`;
