// A widget's row of actions under its body.
//
// A widget's row of actions on what it shows, under its body: "Export
// figure", "Download table (CSV)" and any other action on its charts. Every
// such action goes into this one row, built here, so they wrap as whole
// controls (a label never breaks from its select) however many there are.

/**
 * figureRow(fig) is the action row of widget figure fig, made and appended
 * to fig the first time it is asked for.
 */
export function figureRow(fig) {
  let row = fig.querySelector(':scope > .export-figure');
  if (!row) {
    row = document.createElement('div');
    row.className = 'export-figure';
    fig.append(row);
  }
  return row;
}

/**
 * field(label, control) is a label and its control kept together on one
 * line of the row: <span class="fig-field"><label for=…>label</label>control</span>.
 */
export function field(label, control) {
  const span = document.createElement('span');
  span.className = 'fig-field';
  const l = document.createElement('label');
  l.htmlFor = control.id;
  l.textContent = label;
  span.append(l, control);
  return span;
}
