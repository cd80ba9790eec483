-- Step 5: a release may carry the id its client drew for it
-- (lecture.RequestID), unique in its session, so that a second click or a
-- resent request is answered with the release it repeats and charged once.
ALTER TABLE releases ADD COLUMN request TEXT;
CREATE UNIQUE INDEX IF NOT EXISTS releases_by_request ON releases (session, request) WHERE request IS NOT NULL;
