-- Step 2 gives sessions a roster and a door, and lists who has joined
-- (docs/security.md, finding 4). sessions.roster is the most distinct
-- students who may answer and sessions.door_open whether new ones may still
-- join; students lists who has joined, one row per (session, student). The
-- statement that stores an answer checks the door and counts students (one
-- range of their primary-key index) in its WHERE clause, and the trigger
-- submissions_join adds the student inside that same statement, so an
-- answer is one atomic write whether or not it is the student's first.
--
-- ALTER TABLE has no IF NOT EXISTS, so this step runs once per database: D1
-- records the migrations it has applied, and `dpplay serve` records them in
-- SQLite's user_version.
--
-- Students who answered before this step are put on their sessions'
-- rosters, so that every student with a submission is on the roster: the
-- trigger fires on an answer's first insert only, and an old student's
-- later answer to the same activity is an update.
ALTER TABLE sessions ADD COLUMN roster INTEGER NOT NULL DEFAULT 1000;
ALTER TABLE sessions ADD COLUMN door_open INTEGER NOT NULL DEFAULT 1;
CREATE TABLE IF NOT EXISTS students (
  session TEXT NOT NULL REFERENCES sessions(code),
  student TEXT NOT NULL,
  joined INTEGER NOT NULL,
  PRIMARY KEY (session, student)
);
INSERT OR IGNORE INTO students (session, student, joined)
SELECT session, student, MIN(updated) FROM submissions GROUP BY session, student;
CREATE TRIGGER IF NOT EXISTS submissions_join AFTER INSERT ON submissions
BEGIN INSERT INTO students (session, student, joined) VALUES (NEW.session, NEW.student, NEW.updated) ON CONFLICT (session, student) DO NOTHING; END;
