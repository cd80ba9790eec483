// Building page elements from plain data: attributes by setAttribute and
// text by textContent, so nothing given here is ever parsed as markup.

/** el(tag, attrs, text) is a new element tag with the attributes attrs and, if given, the text text. */
export function el(tag, attrs = {}, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}
