// The colour theme applied to the page: system, light or dark.
//
// The colour theme, for the lesson (shell/topbar.js) and the embed page: "system"
// follows prefers-color-scheme; "light" and "dark" override it by rewriting
// the condition of every prefers-color-scheme rule in the page's
// stylesheets, so the palette stays defined once, in styles.css.
export const THEMES = ['system', 'light', 'dark'];
const original = new WeakMap();
// Whether a rule has been rewritten: until then "system" needs no walk over
// the stylesheets, whose CSSOM costs a long task to build at page load.
let rewritten = false;

/** applyTheme(theme) shows the page in theme: 'system', 'light' or 'dark'. */
export function applyTheme(theme) {
  if (theme !== 'system') rewritten = true;
  for (const sheet of rewritten ? document.styleSheets : []) {
    let rules;
    try { rules = sheet.cssRules; } catch { continue; }
    for (const rule of rules) {
      if (!(rule instanceof CSSMediaRule)) continue;
      if (!original.has(rule)) original.set(rule, rule.media.mediaText);
      const text = original.get(rule);
      const m = /\(\s*prefers-color-scheme:\s*(light|dark)\s*\)/.exec(text);
      if (!m) continue;
      if (theme === 'system') rule.media.mediaText = text;
      else rule.media.mediaText = m[1] === theme ? text.replace(m[0], '(min-width: 0px)') : 'not all';
    }
  }
  document.documentElement.style.colorScheme = theme === 'system' ? '' : theme;
  document.documentElement.dataset.theme = theme;
}

