DROP INDEX sheets_seating_version;
