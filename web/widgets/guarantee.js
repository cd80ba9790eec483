// The exponential mechanism widget's privacy readout: what its ε promises.
//
// What the exponential mechanism widget's ε promises, as its formula line
// says it. The mechanism weighs candidate r by exp(ε·u(r)/(2Δ)) with the Δ
// typed in (in the article's form, exp(ε_a·u(r)), the same mechanism at
// ε = 2ε_aΔ). If one person moves each score by at most s between
// neighbours of either notion, each weight moves by a factor of at most
// exp(ε·s/(2Δ)) and the sum under it by as much, so the mechanism is
// (ε·s/Δ)-differentially private: the claimed ε holds exactly when Δ ≥ s.
// Each case is written out as a whole sentence, so that none is joined
// from pieces.
import { fmt } from '../base/format.js';

const sentences = {
  dp: {
    unknown: (n) => `with ε = ${n.eps}, Δ = ${n.delta}: this is ε-differentially private, ε = ${n.eps}, for change-one-answer neighbours (and add-or-remove ones) if one person can move each score by at most Δ, the scores’ sensitivity. For these scores the widget cannot check that: it does not know how they were computed.`,
    equal: (n) => `with ε = ${n.eps}, Δ = ${n.delta}: this is ε-differentially private, ε = ${n.eps}, for change-one-answer neighbours (and add-or-remove ones): one person moves each score by at most Δ = ${n.s}, the scores’ sensitivity.`,
    above: (n) => `with ε = ${n.eps}, Δ = ${n.delta}: this is ε-differentially private, ε = ${n.eps}, for change-one-answer neighbours (and add-or-remove ones), since Δ is more than the scores’ sensitivity, ${n.s}: for one person the privacy loss is at most ε·${n.s}/Δ = ${n.bound}.`,
    below: (n) => `with ε = ${n.eps}, Δ = ${n.delta}: no guarantee at ε = ${n.eps}. One person moves a score by up to ${n.s}, more than Δ, so for change-one-answer neighbours (and add-or-remove ones) the proof gives only ε·${n.s}/Δ = ${n.bound}.`,
  },
  article: {
    unknown: (n) => `with ε = ${n.eps}, Δ = ${n.delta}: the article’s theorem makes this 2εΔ = ${n.claim}-differentially private for change-one-answer neighbours (and add-or-remove ones) if one person can move each score by at most Δ, the scores’ sensitivity. For these scores the widget cannot check that: it does not know how they were computed.`,
    equal: (n) => `with ε = ${n.eps}, Δ = ${n.delta}: the article’s theorem makes this 2εΔ = ${n.claim}-differentially private for change-one-answer neighbours (and add-or-remove ones): one person moves each score by at most Δ = ${n.s}, the scores’ sensitivity.`,
    above: (n) => `with ε = ${n.eps}, Δ = ${n.delta}: the article’s theorem makes this 2εΔ = ${n.claim}-differentially private for change-one-answer neighbours (and add-or-remove ones), since Δ is more than the scores’ sensitivity, ${n.s}: with that sensitivity it gives 2ε·${n.s} = ${n.bound}.`,
    below: (n) => `with ε = ${n.eps}, Δ = ${n.delta}: no guarantee at 2εΔ = ${n.claim}. One person moves a score by up to ${n.s}, more than Δ, so for change-one-answer neighbours (and add-or-remove ones) the article’s theorem gives only 2ε·${n.s} = ${n.bound}.`,
  },
};

/**
 * privacyCase(delta, s) is how the typed Δ stands to the scores'
 * sensitivity s: 'unknown' when s is null (scores typed in, or a file's
 * score column), else 'equal', 'above' (Δ > s: ε holds, and more) or
 * 'below' (Δ < s: no guarantee at ε).
 */
export function privacyCase(delta, s) {
  if (s == null) return 'unknown';
  if (delta === s) return 'equal';
  return delta > s ? 'above' : 'below';
}

/**
 * apart(x, y) writes x and y to 4 significant digits, or to as many more
 * (up to 12) as it takes for them to read apart when they differ: a bound
 * just above the claimed ε (1.0001 at Δ = 0.9999) must not print as the
 * claim itself.
 */
export function apart(x, y) {
  let d = 4;
  while (d < 12 && x !== y && +fmt(x, d) === +fmt(y, d)) d++;
  return [fmt(x, d), fmt(y, d)];
}

/**
 * emGuarantee({form, eps, delta, epsilon, sensitivity}) is the formula
 * line's sentence: form 'dp' or 'article', eps the slider's number (ε, or ε_a
 * in the article's form), delta the typed Δ, epsilon the ε of the ε/(2Δ)
 * form the mechanism runs at (2ε_aΔ in the article's) and sensitivity the
 * scores' sensitivity s, or null when the widget does not know their
 * function. The bound it quotes is epsilon·s/Δ, and it and the claim are
 * written to digits enough to read apart.
 */
export function emGuarantee({ form, eps, delta, epsilon, sensitivity }) {
  const which = privacyCase(delta, sensitivity);
  const bound = sensitivity == null ? epsilon : epsilon * sensitivity / delta;
  const [b, claim] = apart(bound, form === 'dp' ? eps : epsilon);
  return sentences[form][which]({
    eps: form === 'dp' ? claim : fmt(eps, 4), delta: String(delta), claim,
    s: sensitivity == null ? '' : fmt(sensitivity, 4), bound: b,
  });
}
