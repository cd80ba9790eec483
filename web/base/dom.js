// Page elements and markup built from text that never becomes markup.
//
// el (HTML) and svgEl (SVG) build an element from plain data: attributes by
// setAttribute and text as text nodes, so nothing given to them is ever
// parsed as markup. escapeHTML is for the few places that write a markup
// string (innerHTML): every piece of text in it goes through it.

/**
 * el(tag, attrs, ...children) is a new element tag with the attributes attrs
 * (true sets an empty attribute, false, null and undefined none) and the
 * children given: elements, or strings, which become text (never markup);
 * arrays of children are flattened, and false, null and undefined children
 * are left out.
 */
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v == null) continue;
    e.setAttribute(k, v === true ? '' : String(v));
  }
  e.append(...children.flat(Infinity).filter((c) => c != null && c !== false));
  return e;
}

const SVG = 'http://www.w3.org/2000/svg';

/** svgEl(name, attrs, text) is a new SVG element name with the attributes attrs and, unless undefined, the text text. */
export function svgEl(name, attrs = {}, text) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

/** escapeHTML(s) makes s safe inside HTML text and attribute values. */
export function escapeHTML(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}
