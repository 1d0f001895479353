ALTER TABLE pairs DROP COLUMN group_label;
ALTER TABLE tournaments DROP COLUMN level;
ALTER TABLE tournaments DROP COLUMN groups;
