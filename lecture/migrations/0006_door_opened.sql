-- Step 6 numbers the openings of a session's door, so that pruning can
-- remove every student who joined before the instructor last opened it,
-- answers or not: ids a script invented and kept answering with, which
-- pruning by answers to the open activities keeps (docs/security.md,
-- issue 43). sessions.doors counts the times the instructor opened the door
-- after closing it, sessions.door_opened is when it last happened (Unix
-- seconds, 0 if never), and students.door is the opening a student came in
-- through, set by the trigger that puts a new student on the roster within
-- the statement that stores their first answer.
ALTER TABLE sessions ADD COLUMN doors INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN door_opened INTEGER NOT NULL DEFAULT 0;
ALTER TABLE students ADD COLUMN door INTEGER NOT NULL DEFAULT 0;
DROP TRIGGER IF EXISTS submissions_join;
CREATE TRIGGER IF NOT EXISTS submissions_join AFTER INSERT ON submissions
BEGIN INSERT INTO students (session, student, joined, client, door) VALUES (NEW.session, NEW.student, NEW.updated, NEW.client, (SELECT doors FROM sessions WHERE code = NEW.session)) ON CONFLICT (session, student) DO NOTHING; UPDATE activities SET answers = answers + 1 WHERE session = NEW.session AND id = NEW.activity; UPDATE sessions SET answers = answers + 1, version = version + 1, touched = MAX(touched, NEW.updated) WHERE code = NEW.session; END;
