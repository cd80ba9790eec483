// Short tasks for the page's work: yield to the browser, or wait for the next frame.
//
// Splitting the page's work into short tasks, so that no start-up step
// holds the main thread long enough to delay a tap or a key (a long task
// is one over 50 ms; on a slow phone every step here is several times
// slower than on a desktop).

/**
 * yieldTask() resolves in a later task, ahead of other queued work where the
 * browser can say so (scheduler.yield), so that the browser may paint and
 * answer input between two steps.
 */
export const yieldTask = () => (globalThis.scheduler?.yield ? scheduler.yield() : new Promise((resolve) => {
  const ch = new MessageChannel();
  ch.port1.onmessage = () => resolve();
  ch.port2.postMessage(null);
}));

/**
 * afterFrame() resolves in a task after the browser's next rendering, when
 * the page's layout is up to date, so that reading an element's position
 * there costs no layout of its own. A hidden page renders no frames: there
 * it resolves after 100 ms.
 */
export const afterFrame = () => new Promise((resolve) => {
  const late = setTimeout(resolve, 100);
  requestAnimationFrame(() => {
    clearTimeout(late);
    yieldTask().then(resolve);
  });
});
