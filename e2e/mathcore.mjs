// What the checks of formulas share: the elements of MathML Core whose
// children are a fixed number of arguments (MathML Core, 3.1.3), and how
// many; mmultiscripts takes a base and pairs of scripts.
export const ARITY = { mfrac: 2, mroot: 2, msub: 2, msup: 2, msubsup: 3, munder: 2, mover: 2, munderover: 3 };

/**
 * wrongArity(tags, arity), run in a page, is those of tags (names of
 * ARITY) of which some MathML element of the page has another number of
 * children than arity gives.
 */
export function wrongArity(tags, arity) {
  const ns = 'http://www.w3.org/1998/Math/MathML';
  return tags.filter((t) => [...document.getElementsByTagNameNS(ns, t)].some((el) => el.children.length !== arity[t]));
}
