// The error probe of the engine tests, served as /__probe.js by the copy of
// the site they run on and loaded by every page before the page's own
// scripts (e2e/engines/stage.mjs). Classic WebDriver reports no console
// messages, so the page keeps its own list: uncaught errors and failed
// loads (the capture phase sees a failed <script>, <link> or <img>),
// unhandled rejections, refusals by the page's Content-Security-Policy,
// errors a worker did not catch, and console.error calls. The list is
// window.__errors; a top-level page keeps it in sessionStorage too, so that
// a navigation does not lose it (a frame's would land in the list of the
// next page of its origin in the tab). In a frame, the probe answers its
// parent's {type: '__probe:ask'} with {type: '__probe:report', errors,
// seen}, seen being what the frame's widget shows, for a test that can
// only read the parent page.
(() => {
  const KEY = '__probe.errors';
  const top = window.parent === window;
  let kept = [];
  try { kept = top ? JSON.parse(sessionStorage.getItem(KEY) || '[]') : []; } catch { kept = []; }
  const errors = Array.isArray(kept) ? kept : [];
  window.__errors = errors;

  // Once the page is being left, what fails is the teardown of its loads
  // (a fetch aborted by the navigation), not the page: nothing more is noted.
  let leaving = false;
  addEventListener('pagehide', () => { leaving = true; }, true);

  /** note(text) adds text to the list, and to sessionStorage. */
  const note = (text) => {
    if (leaving) return;
    errors.push(`${String(text).slice(0, 600)} [${location.pathname}]`);
    try { if (top) sessionStorage.setItem(KEY, JSON.stringify(errors)); } catch { /* storage full or refused: the list in memory stays */ }
  };

  // The spec's "ResizeObserver loop completed with undelivered
  // notifications" is an error event with no error: it says that some size
  // changes are delivered a frame later, not that code failed. Neither
  // Firefox's console events nor Chromium's (e2e/web) report it.
  const resizeLoop = (e) => e.error == null && /^ResizeObserver loop/.test(e.message);

  addEventListener('error', (e) => {
    if (!(e instanceof ErrorEvent)) {
      if (e.target && e.target !== window) note(`failed to load <${e.target.localName}> ${e.target.src || e.target.href || ''}`);
    } else if (!resizeLoop(e)) {
      note(`uncaught ${e.error?.stack || e.message} (${e.filename}:${e.lineno})`);
    }
  }, true);
  addEventListener('unhandledrejection', (e) => note(`unhandled rejection: ${e.reason?.stack || e.reason}`));
  addEventListener('securitypolicyviolation', (e) => note(`CSP refused ${e.blockedURI || 'inline code'} (${e.violatedDirective})`), true);

  const error = console.error;
  console.error = function (...args) {
    note(`console.error: ${args.map((a) => (a instanceof Error ? a.stack || a.message : String(a))).join(' ')}`);
    return error.apply(this, args);
  };

  // A worker's uncaught error reaches the page only as an error event on the Worker.
  const PageWorker = window.Worker;
  if (PageWorker) {
    window.Worker = class extends PageWorker {
      constructor(...args) {
        super(...args);
        this.addEventListener('error', (e) => note(`worker ${args[0]}: ${e.message || 'failed'}`));
      }
    };
  }

  /** seen() is what the frame's widget shows: the embed page's marks and its first figure's redraws and charts. */
  const seen = () => {
    const fig = document.querySelector('figure.widget');
    return {
      embedReady: document.body?.dataset.embedReady || '',
      engineReady: !!document.body?.classList.contains('engine-ready'),
      renders: +(fig?.dataset.renders || 0),
      charts: fig ? fig.querySelectorAll('svg').length : 0,
      eps: fig?.querySelector('[data-key="eps"] input[type=range]')?.getAttribute('aria-valuetext') || '',
    };
  };
  if (window.parent !== window) {
    addEventListener('message', (e) => {
      if (e.source !== window.parent || e.data?.type !== '__probe:ask') return;
      window.parent.postMessage({ type: '__probe:report', errors: errors.slice(), seen: seen() }, '*');
    });
  }
})();
