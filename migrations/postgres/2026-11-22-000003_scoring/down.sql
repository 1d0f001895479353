DROP TABLE audit_log;
DROP TABLE penalties;
DROP TABLE sheets;
