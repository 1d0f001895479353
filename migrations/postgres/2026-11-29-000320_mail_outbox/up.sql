-- The e-mails of the entries online (issue 36), written in the same
-- transaction as what they tell: an entry taken, confirmed from the
-- waiting list, or closed at the start. A background sender takes the due
-- ones (next_try_at), hands them to the mail server and marks them sent,
-- or tries again later with a growing wait: a mail server that is down, or
-- a restart, loses no message. The private token is cleared once sent.
CREATE TABLE mail_outbox (
    id BIGSERIAL PRIMARY KEY,
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    email TEXT NOT NULL,
    token TEXT NOT NULL,
    kind TEXT NOT NULL,
    tournament_name TEXT NOT NULL,
    tries INTEGER NOT NULL DEFAULT 0,
    next_try_at TIMESTAMP NOT NULL,
    sent_at TIMESTAMP,
    last_error TEXT NOT NULL DEFAULT '',
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX mail_outbox_due ON mail_outbox (sent_at, next_try_at);
