DROP TABLE individual_penalties;
