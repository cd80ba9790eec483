-- Step 3 makes a session the whole lecture: sessions.current is the
-- activity the projector shows and the phones follow, 0 before the
-- instructor picks one.
ALTER TABLE sessions ADD COLUMN current INTEGER NOT NULL DEFAULT 0;
