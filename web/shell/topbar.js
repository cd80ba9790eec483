// The top bar's theme and share buttons.
//
// The theme (system, light or dark) is kept in this device's storage and
// applied by page/theme.js; share copies the page's address, which holds
// every widget's setting.
import { THEMES, applyTheme } from '../page/theme.js';
import { $ } from '../lesson/current.js';

/** setupTheme(button) makes button cycle the colour theme and show the one in use. */
export function setupTheme(button) {
  let theme = 'system';
  try { theme = localStorage.getItem('dpplay-theme') || 'system'; } catch { /* no storage */ }
  if (!THEMES.includes(theme)) theme = 'system';
  const show = () => {
    applyTheme(theme);
    $('.label', button).textContent = `Theme: ${theme}`;
    button.title = `Colour theme: ${theme === 'system' ? 'as the system' : theme} (click to change)`;
  };
  button.addEventListener('click', () => {
    theme = THEMES[(THEMES.indexOf(theme) + 1) % THEMES.length];
    try { localStorage.setItem('dpplay-theme', theme); } catch { /* no storage */ }
    show();
  });
  show();
}

/** setupShare(button, status) makes button share or copy the page's address and say so in status. */
export function setupShare(button, status) {
  button.addEventListener('click', async () => {
    const url = location.href;
    if (navigator.share && matchMedia('(pointer: coarse)').matches) {
      try { await navigator.share({ title: document.title, url }); return; } catch (err) { if (err.name === 'AbortError') return; }
    }
    try {
      await navigator.clipboard.writeText(url);
      status.textContent = 'Link copied: it opens this page with every setting as it is now.';
    } catch {
      status.textContent = 'Copy the address from the address bar: it holds every setting.';
    }
    clearTimeout(status.timer);
    status.timer = setTimeout(() => { status.textContent = ''; }, 4000);
  });
}
