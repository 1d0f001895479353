DROP TABLE byes;
DROP TABLE seatings;
DROP TABLE rounds;
DROP TABLE pairs;
DROP TABLE tournaments;
