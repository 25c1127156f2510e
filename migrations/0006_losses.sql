-- What a fault made the worker give up on (docs/reliability.md): per UTC day and kind, how many. An
-- operator reads it at GET /api/losses; nothing is dropped without adding to it (or, when D1 itself
-- is down, without the error log line "Loss not counted").
CREATE TABLE losses (
  day TEXT NOT NULL,
  what TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (day, what)
);
