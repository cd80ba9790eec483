// Building page elements from plain data: attributes by setAttribute and
// text by textContent, so nothing given here is ever parsed as markup.

/**
 * el(tag, attrs, ...children) is a new element tag with the attributes attrs
 * and the children given: elements, or strings, which become text (never markup).
 */
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...children.filter((c) => c !== undefined && c !== null));
  return e;
}
