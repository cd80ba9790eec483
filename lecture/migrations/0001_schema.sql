-- The lecture database, step 1: sessions, activities, answers, releases and
-- the guess counter. Why each table looks as it does:
--   - sessions keeps only a SHA-256 of the instructor token, so a copy of the
--     database does not hand out instructor rights.
--   - submissions has one row per (session, activity, student): an upsert on
--     that key is what makes PUT idempotent.
--   - releases is also the privacy ledger: the ε a session has spent is the sum
--     of its releases' ε, so a release and its charge are written by one
--     statement and can never disagree.
--   - guesses counts failed join-code lookups per client address and time
--     window; on Workers nothing survives in memory, so the rate limit must
--     live here.
CREATE TABLE IF NOT EXISTS sessions (
  code TEXT PRIMARY KEY,
  token_hash BLOB NOT NULL,
  budget REAL NOT NULL,
  created INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS activities (
  session TEXT NOT NULL REFERENCES sessions(code),
  id INTEGER NOT NULL,
  kind TEXT NOT NULL,
  config TEXT NOT NULL,
  closed INTEGER NOT NULL DEFAULT 0,
  created INTEGER NOT NULL,
  PRIMARY KEY (session, id)
);
CREATE TABLE IF NOT EXISTS submissions (
  session TEXT NOT NULL,
  activity INTEGER NOT NULL,
  student TEXT NOT NULL,
  answer TEXT NOT NULL,
  updated INTEGER NOT NULL,
  PRIMARY KEY (session, activity, student),
  FOREIGN KEY (session, activity) REFERENCES activities(session, id)
);
CREATE TABLE IF NOT EXISTS releases (
  session TEXT NOT NULL REFERENCES sessions(code),
  seq INTEGER NOT NULL,
  activity INTEGER NOT NULL,
  epsilon REAL NOT NULL,
  participants INTEGER NOT NULL,
  result TEXT NOT NULL,
  created INTEGER NOT NULL,
  PRIMARY KEY (session, seq)
);
CREATE INDEX IF NOT EXISTS releases_by_activity ON releases (session, activity, seq);
CREATE TABLE IF NOT EXISTS guesses (
  client TEXT NOT NULL,
  win INTEGER NOT NULL,
  failures INTEGER NOT NULL,
  PRIMARY KEY (client, win)
);
