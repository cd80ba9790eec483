// A screenshot helper for looking at a lesson while writing it (not a test):
//   node e2e/shot.mjs 'slug/#…' 'CSS selector' WIDTH OUT.png
// Needs `make site`. It serves dist/ as the tests do and waits for the lesson.
import { serve } from './web/server.mjs';
import { launch, ready, watch } from './web/browser.mjs';
import { afterTasks, nearLive } from './web/harness.mjs';

const [hash, selector, width = '1280', out = '/tmp/shot.png'] = process.argv.slice(2);
const server = await serve('dist', '/dpplay/');
const browser = await launch();
try {
  const page = await browser.newPage({ viewport: { width: Number(width), height: 900 } });
  const errors = watch(page);
  await page.goto(`${server.url}${hash || ''}`);
  await ready(page);
  const el = selector ? page.locator(selector).first() : page.locator('body');
  await el.scrollIntoViewIfNeeded();
  await nearLive(page);
  await afterTasks(page);
  await el.screenshot({ path: out });
  if (errors.length) console.error(errors.join('\n'));
  console.log(out);
} finally {
  await browser.close();
  server.close?.();
  process.exit(0);
}
