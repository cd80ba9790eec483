// Candidate sets shared by the widgets. Scores are what the mechanisms
// rank; delta is their sensitivity Δ (how far one person can move a score).

// Adult data set (32,561 people): marital-status counts.
const adultNames = ['Married-civ-spouse', 'Never-married', 'Divorced', 'Separated', 'Widowed', 'Married-spouse-absent', 'Married-AF-spouse'];
const adultCounts = [14976, 10683, 4443, 1025, 993, 418, 23];

export const datasets = {
  adult: {
    label: 'Adult marital status (score = count ÷ 1000)',
    candidates: adultNames,
    scores: adultCounts.map((c) => c / 1000),
    delta: 1,
    unit: 'thousand people',
  },
  'adult-raw': {
    label: 'Adult marital status (score = raw count)',
    candidates: adultNames,
    scores: adultCounts.slice(),
    delta: 1,
    unit: 'people',
  },
  meeting: {
    label: 'Meeting days (score = colleagues free)',
    candidates: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'],
    scores: [21, 27, 25, 12, 18],
    delta: 1,
    unit: 'people free',
  },
};

export const datasetNames = Object.keys(datasets);

/** scoresFor(values) returns the scores in use: the data set's, or the edited ones. */
export function scoresFor(name, edited) {
  const d = datasets[name];
  if (edited && edited.length === d.scores.length) return edited;
  return d.scores;
}
