// The "Embed or share" button in a widget's action row.
//
// "Embed or share": a button in every widget's action row (figrow.js) that
// opens the widget's dialog of links, embed code and QR code
// (embeddialog.js, loaded when it is first pressed).
import { figureRow } from '../page/figrow.js';

/** attachEmbed(fig) adds the "Embed or share" button to widget figure fig's action row, and returns it. */
export function attachEmbed(fig) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'embed-button';
  b.setAttribute('aria-haspopup', 'dialog');
  b.textContent = 'Embed or share';
  b.addEventListener('click', () => import('./embeddialog.js').then((m) => m.openEmbed(fig, b)));
  figureRow(fig).append(b);
  return b;
}
