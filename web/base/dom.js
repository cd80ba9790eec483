// Page elements and markup built from text that never becomes markup.
//
// el builds an element from plain data: attributes by setAttribute and
// children as nodes or text (textContent), so nothing given to it is ever
// parsed as markup. escapeHTML is for the few places that write a markup
// string (innerHTML): every piece of text in it goes through it.

/**
 * el(tag, attrs, ...children) is a new element tag with the attributes attrs
 * and the children given: elements, or strings, which become text (never
 * markup); undefined and null children are left out.
 */
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...children.filter((c) => c !== undefined && c !== null));
  return e;
}

/** escapeHTML(s) makes s safe inside HTML text and attribute values. */
export function escapeHTML(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}
