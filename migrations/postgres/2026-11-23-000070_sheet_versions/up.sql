-- The public pages' read of a tournament asks each table for its sheet's id
-- and version only (the sheet itself when that version is not known yet):
-- this index answers it without reading the sheets.
CREATE INDEX sheets_seating_version ON sheets (seating_id) INCLUDE (id, version);
