// The exponential mechanism widget's privacy readout (web/widgets/guarantee.js)
// in Node: the claimed ε holds exactly when the typed Δ is at least the
// scores' sensitivity s, the bound it quotes is ε·s/Δ, every sentence names
// its neighbour notion, and scores whose function the widget does not know
// get the condition instead of a verdict.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emGuarantee, privacyCase } from '../../web/widgets/guarantee.js';

const NOTION = /for change-one-answer neighbours \(and add-or-remove ones\)/;

test('the boundary: Δ exactly the sensitivity holds, just below it does not', () => {
  // The meeting poll (s = 1) at the Δ box's four digits, and the Adult
  // scores in thousands (s = 0.001) at the box's smallest Δ.
  assert.equal(privacyCase(1, 1), 'equal');
  assert.equal(privacyCase(0.9999, 1), 'below');
  assert.equal(privacyCase(1.0001, 1), 'above');
  assert.equal(privacyCase(0.001, 0.001), 'equal');
  assert.equal(privacyCase(0.00099, 0.001), 'below');
  assert.equal(privacyCase(1, null), 'unknown');
  assert.equal(emGuarantee({ form: 'dp', eps: 1, delta: 1, epsilon: 1, sensitivity: 1 }),
    'with ε = 1, Δ = 1: this is ε-differentially private, ε = 1, for change-one-answer neighbours (and add-or-remove ones): one person moves each score by at most Δ = 1, the scores’ sensitivity.');
  assert.equal(emGuarantee({ form: 'dp', eps: 1, delta: 0.9999, epsilon: 1, sensitivity: 1 }),
    'with ε = 1, Δ = 0.9999: no guarantee at ε = 1. One person moves a score by up to 1, more than Δ, so for change-one-answer neighbours (and add-or-remove ones) the proof gives only ε·1/Δ = 1.0001.');
});

test('the issue’s case: ε = 20 at Δ = 0.001 on counts is no guarantee at 20', () => {
  const s = emGuarantee({ form: 'dp', eps: 20, delta: 0.001, epsilon: 20, sensitivity: 1 });
  assert.equal(s, 'with ε = 20, Δ = 0.001: no guarantee at ε = 20. One person moves a score by up to 1, more than Δ, so for change-one-answer neighbours (and add-or-remove ones) the proof gives only ε·1/Δ = 20000.');
  assert.doesNotMatch(s, /this is ε-differentially private/);
});

test('the Adult scores in thousands at Δ = 1: ε holds, and for one person the loss is ε/1000', () => {
  assert.equal(emGuarantee({ form: 'dp', eps: 1, delta: 1, epsilon: 1, sensitivity: 0.001 }),
    'with ε = 1, Δ = 1: this is ε-differentially private, ε = 1, for change-one-answer neighbours (and add-or-remove ones), since Δ is more than the scores’ sensitivity, 0.001: for one person the privacy loss is at most ε·0.001/Δ = 0.001.');
  // The article's form runs exp(ε_a·u): 2ε_aΔ is claimed, 2ε_a·s is what the theorem gives.
  assert.equal(emGuarantee({ form: 'article', eps: 0.5, delta: 1, epsilon: 1, sensitivity: 0.001 }),
    'with ε = 0.5, Δ = 1: the article’s theorem makes this 2εΔ = 1-differentially private for change-one-answer neighbours (and add-or-remove ones), since Δ is more than the scores’ sensitivity, 0.001: with that sensitivity it gives 2ε·0.001 = 0.001.');
  assert.equal(emGuarantee({ form: 'article', eps: 0.5, delta: 0.001, epsilon: 0.001, sensitivity: 1 }),
    'with ε = 0.5, Δ = 0.001: no guarantee at 2εΔ = 0.001. One person moves a score by up to 1, more than Δ, so for change-one-answer neighbours (and add-or-remove ones) the article’s theorem gives only 2ε·1 = 1.');
});

test('at every setting: a verdict exactly when Δ ≥ s, the bound ε·s/Δ, the notion named', () => {
  const deltas = [0.001, 0.0011, 0.5, 0.9999, 1, 1.0001, 2, 10000];
  for (const form of ['dp', 'article']) {
    for (const sensitivity of [0.001, 1, null]) {
      for (const delta of deltas) {
        for (const eps of [0.01, 1, 20]) {
          const epsilon = form === 'dp' ? eps : 2 * eps * delta;
          const s = emGuarantee({ form, eps, delta, epsilon, sensitivity });
          assert.match(s, NOTION, s);
          assert.match(s, new RegExp(`^with ε = ${eps}, Δ = ${delta}: `), s);
          if (sensitivity == null) {
            assert.match(s, /if one person can move each score by at most Δ.*cannot check/, s);
            continue;
          }
          assert.equal(/no guarantee/.test(s), delta < sensitivity, s);
          assert.equal(/-differentially private/.test(s), delta >= sensitivity, s);
          if (delta !== sensitivity) {
            const exact = epsilon * sensitivity / delta, claim = form === 'dp' ? eps : epsilon;
            const written = +s.match(/= (\d+(?:\.\d+)?(?:e[+-]?\d+)?)\.$/)[1];
            assert.ok(Math.abs(written - exact) <= 5e-4 * exact, `${s}: the bound ${exact}`);
            const said = +(form === 'dp' ? s.match(/^with ε = (\d+(?:\.\d+)?(?:e[+-]?\d+)?),/) : s.match(/2εΔ = (\d+(?:\.\d+)?(?:e[+-]?\d+)?)/))[1];
            assert.ok(Math.abs(said - claim) <= 5e-4 * claim, `${s}: the claim ${claim}`);
            assert.notEqual(written, said, `${s}: the bound reads as the claim`);
            assert.equal(written > claim, exact > claim, s);
          }
        }
      }
    }
  }
});
