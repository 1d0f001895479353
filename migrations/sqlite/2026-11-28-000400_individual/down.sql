DROP TABLE individual_players;
