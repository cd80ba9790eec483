-- Generated from lecture.Migrations by `go generate ./lecture/`; do not edit.
ALTER TABLE sessions ADD COLUMN roster INTEGER NOT NULL DEFAULT 1000;
ALTER TABLE sessions ADD COLUMN door_open INTEGER NOT NULL DEFAULT 1;
CREATE TABLE IF NOT EXISTS students (
  session TEXT NOT NULL REFERENCES sessions(code),
  student TEXT NOT NULL,
  joined INTEGER NOT NULL,
  PRIMARY KEY (session, student)
);
