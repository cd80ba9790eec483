-- Step 4 makes a poll cheap whatever a session holds, accounts ε exactly,
-- and lets old sessions expire (docs/security.md, issue 28).
--
-- Exact ε: sessions.budget_units and releases.eps_units hold ε in whole
-- micro-units (lecture.EpsilonUnit = 10⁻⁶), so that the budget check inside
-- the statement that records a release compares integers. Older releases
-- are charged their ε rounded up to a whole unit, never down.
--
-- Counters: a trigger on each table keeps sessions.joined (students on the
-- roster), sessions.addresses (distinct client addresses among them),
-- sessions.answers and activities.answers, so a poll reads them instead of
-- counting rows; sessions.version goes up with every change a poll shows, so
-- a poll that has seen the current version is answered 304 after one read
-- of the session's row; sessions.touched is the time of the last change,
-- from which a session expires.
--
-- students.client is a hash of the joining request's address (never the
-- address), for sessions.addresses; submissions.client carries it to the
-- trigger that puts a new student on the roster.
ALTER TABLE sessions ADD COLUMN budget_units INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN touched INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN joined INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN addresses INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN answers INTEGER NOT NULL DEFAULT 0;
ALTER TABLE activities ADD COLUMN answers INTEGER NOT NULL DEFAULT 0;
ALTER TABLE releases ADD COLUMN eps_units INTEGER NOT NULL DEFAULT 0;
ALTER TABLE students ADD COLUMN client TEXT NOT NULL DEFAULT '';
ALTER TABLE submissions ADD COLUMN client TEXT NOT NULL DEFAULT '';
CREATE INDEX IF NOT EXISTS students_by_client ON students (session, client);
CREATE INDEX IF NOT EXISTS sessions_by_touched ON sessions (touched);
UPDATE sessions SET budget_units = CAST(ROUND(budget * 1000000) AS INTEGER);
UPDATE releases SET eps_units = MAX(1, CAST(epsilon * 1000000 AS INTEGER) + (epsilon * 1000000 > CAST(epsilon * 1000000 AS INTEGER)));
UPDATE sessions SET touched = MAX(created, COALESCE((SELECT MAX(updated) FROM submissions WHERE session = code), 0), COALESCE((SELECT MAX(created) FROM releases WHERE session = code), 0)),
  joined = (SELECT COUNT(*) FROM students WHERE session = code),
  addresses = (SELECT COUNT(DISTINCT client) FROM students WHERE session = code),
  answers = (SELECT COUNT(*) FROM submissions WHERE session = code);
UPDATE activities SET answers = (SELECT COUNT(*) FROM submissions s WHERE s.session = activities.session AND s.activity = activities.id);
DROP TRIGGER IF EXISTS submissions_join;
CREATE TRIGGER IF NOT EXISTS submissions_join AFTER INSERT ON submissions
BEGIN INSERT INTO students (session, student, joined, client) VALUES (NEW.session, NEW.student, NEW.updated, NEW.client) ON CONFLICT (session, student) DO NOTHING; UPDATE activities SET answers = answers + 1 WHERE session = NEW.session AND id = NEW.activity; UPDATE sessions SET answers = answers + 1, version = version + 1, touched = MAX(touched, NEW.updated) WHERE code = NEW.session; END;
CREATE TRIGGER IF NOT EXISTS submissions_change AFTER UPDATE ON submissions
BEGIN UPDATE sessions SET touched = MAX(touched, NEW.updated) WHERE code = NEW.session; END;
CREATE TRIGGER IF NOT EXISTS submissions_gone AFTER DELETE ON submissions
BEGIN UPDATE activities SET answers = answers - 1 WHERE session = OLD.session AND id = OLD.activity; UPDATE sessions SET answers = answers - 1, version = version + 1 WHERE code = OLD.session; END;
CREATE TRIGGER IF NOT EXISTS students_join AFTER INSERT ON students
BEGIN UPDATE sessions SET joined = joined + 1, version = version + 1, addresses = addresses + NOT EXISTS (SELECT 1 FROM students WHERE session = NEW.session AND client = NEW.client AND student <> NEW.student) WHERE code = NEW.session; END;
CREATE TRIGGER IF NOT EXISTS students_gone AFTER DELETE ON students
BEGIN UPDATE sessions SET joined = joined - 1, version = version + 1, addresses = addresses - NOT EXISTS (SELECT 1 FROM students WHERE session = OLD.session AND client = OLD.client) WHERE code = OLD.session; END;
CREATE TRIGGER IF NOT EXISTS activities_new AFTER INSERT ON activities
BEGIN UPDATE sessions SET version = version + 1, touched = MAX(touched, NEW.created) WHERE code = NEW.session; END;
CREATE TRIGGER IF NOT EXISTS activities_change AFTER UPDATE OF closed ON activities
BEGIN UPDATE sessions SET version = version + 1 WHERE code = NEW.session; END;
CREATE TRIGGER IF NOT EXISTS releases_new AFTER INSERT ON releases
BEGIN UPDATE sessions SET version = version + 1, touched = MAX(touched, NEW.created) WHERE code = NEW.session; END;
