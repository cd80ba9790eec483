-- Generated from lecture.Migrations by `go generate ./lecture/`; do not edit.
ALTER TABLE sessions ADD COLUMN current INTEGER NOT NULL DEFAULT 0;
