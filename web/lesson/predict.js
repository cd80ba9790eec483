// Predict, then reveal: a lesson's questions and their Reveal buttons.
//
// Predict, then reveal: a lesson's question whose Reveal button marks the
// right choice, says whether the reader's was right, shows the explanation
// and keeps the answer in the reader's progress.
import { savePrediction } from '../state/progress.js';
import { markProgress } from './progressview.js';
import { $, index, state } from './current.js';

/** wirePredictions wires the Reveal button of every question in the lesson on screen. */
export function wirePredictions() {
  for (const sec of document.querySelectorAll('#lesson section.predict')) {
    $('.reveal-button', sec).addEventListener('click', () => {
      const chosen = reveal(sec);
      // The button disables itself: focus goes to the answer it revealed.
      const answer = $('.reveal', sec);
      answer.tabIndex = -1;
      answer.focus();
      savePrediction(state.slug, sec.id, chosen ? Number(chosen.value) : -1);
      markProgress(index);
    });
  }
}

/** reveal(sec) shows a prediction's answer and returns the choice made, if any. */
export function reveal(sec) {
  const button = $('.reveal-button', sec);
  const chosen = $('input[type=radio]:checked', sec);
  const verdict = $('.verdict', sec);
  for (const input of sec.querySelectorAll('input[type=radio]')) {
    input.closest('label').classList.toggle('is-correct', input.dataset.correct === 'true');
  }
  if (!chosen) verdict.textContent = 'You did not choose an answer; here is the explanation.';
  else if (chosen.dataset.correct === 'true') verdict.textContent = 'Your prediction was right.';
  else verdict.textContent = 'Not quite: the marked choice is the right one.';
  verdict.className = 'verdict ' + (chosen ? (chosen.dataset.correct === 'true' ? 'ok' : 'bad') : '');
  $('.reveal', sec).hidden = false;
  button.setAttribute('aria-expanded', 'true');
  button.disabled = true;
  return chosen;
}
