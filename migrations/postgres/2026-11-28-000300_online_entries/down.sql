DROP TABLE online_entries;
DROP TABLE tournament_online;
