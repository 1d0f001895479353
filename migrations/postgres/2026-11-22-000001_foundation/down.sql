DROP TABLE app_settings;
DROP TABLE sessions;
DROP TABLE users;
