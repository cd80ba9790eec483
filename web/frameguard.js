// Hides a page that another site frames (a classic script loaded first).
//
// Loaded first, as a classic blocking script, by the pages that must not be
// framed by another site (the lessons and the live lecture's views). On a
// static host, which cannot send a frame-ancestors header (and a <meta> CSP
// cannot carry one), this is the page's only defence against being shown
// inside another site's frame: if any window above this one is of another
// origin (reading its location throws), the page is hidden and stops
// loading, so its scripts never run and there is nothing to click.
// docs/security.md says what it does not defend. `dpplay serve` sends
// frame-ancestors 'self' as well. The embed page does not load it.
(function () {
  try {
    for (var w = window; w !== w.top; w = w.parent) {
      if (w.parent.location.origin !== location.origin) throw new Error('framed by another origin');
    }
  } catch (e) {
    document.documentElement.style.setProperty('display', 'none', 'important');
    window.stop();
  }
})();
