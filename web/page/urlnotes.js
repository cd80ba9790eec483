// The box above a widget or lesson that says what the link asked for and could not get.
//
// The box above the lesson (#url-notes) that lists what the link asked for
// and the page could not show as asked, or says what went wrong. The lesson
// and the embed page (web/embed/embedpage.js) share it.
const $box = () => document.getElementById('url-notes');

/** showNotes(notes) lists notes in the box, with a Dismiss button, or hides the box when there are none. */
export function showNotes(notes) {
  const box = $box();
  if (!notes.length) { box.hidden = true; box.replaceChildren(); return; }
  box.hidden = false;
  const h = document.createElement('p');
  h.innerHTML = '<strong>This link asked for settings the page cannot show, so it adjusted them:</strong>';
  const ul = document.createElement('ul');
  for (const n of notes) {
    const li = document.createElement('li');
    li.textContent = n;
    ul.append(li);
  }
  const close = document.createElement('button');
  close.type = 'button';
  close.className = 'link-button';
  close.textContent = 'Dismiss';
  close.addEventListener('click', () => { box.hidden = true; });
  box.replaceChildren(h, ul, close);
}

/** reportError(err) shows err's message in the box. */
export function reportError(err) {
  const box = $box();
  box.hidden = false;
  box.textContent = `Something went wrong: ${err.message}`;
}
