-- Generated from lecture.Migrations by `go generate ./lecture/`; do not edit.
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
