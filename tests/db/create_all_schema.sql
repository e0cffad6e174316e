-- The schema as SQLModel.metadata.create_all made it before migrations (main at 00124e1),
-- dumped from sqlite_master: every laptop database made before Alembic looks like this.

CREATE TABLE auth_user (
	id INTEGER NOT NULL, 
	username VARCHAR(20) NOT NULL, 
	password_hash VARCHAR(255), 
	token VARCHAR(32) NOT NULL, 
	created_at DATETIME NOT NULL, 
	PRIMARY KEY (id)
);

CREATE UNIQUE INDEX ix_auth_user_username ON auth_user (username);

CREATE TABLE play_table (
	id VARCHAR(16) NOT NULL, 
	game VARCHAR(16) NOT NULL, 
	seed INTEGER NOT NULL, 
	options VARCHAR NOT NULL, 
	seats VARCHAR NOT NULL, 
	owner VARCHAR(64) NOT NULL, 
	finished BOOLEAN NOT NULL, 
	created_at DATETIME NOT NULL, 
	updated_at DATETIME NOT NULL, 
	PRIMARY KEY (id)
);

CREATE INDEX ix_play_table_owner ON play_table (owner);

CREATE INDEX ix_play_table_finished ON play_table (finished);

CREATE TABLE ranking_table (
	table_id VARCHAR(16) NOT NULL, 
	game VARCHAR(16) NOT NULL, 
	rated_at DATETIME NOT NULL, 
	PRIMARY KEY (table_id)
);

CREATE TABLE rooms_room (
	code VARCHAR(8) NOT NULL, 
	game VARCHAR(16) NOT NULL, 
	option VARCHAR(16) NOT NULL, 
	level VARCHAR(8) NOT NULL, 
	host VARCHAR(64) NOT NULL, 
	seats VARCHAR NOT NULL, 
	status VARCHAR(10) NOT NULL, 
	table_id VARCHAR(16), 
	kicked VARCHAR NOT NULL, 
	created_at DATETIME NOT NULL, 
	updated_at DATETIME NOT NULL, 
	PRIMARY KEY (code)
);

CREATE INDEX ix_rooms_room_host ON rooms_room (host);

CREATE INDEX ix_rooms_room_table_id ON rooms_room (table_id);

CREATE INDEX ix_rooms_room_status ON rooms_room (status);

CREATE TABLE auth_identity (
	id INTEGER NOT NULL, 
	provider VARCHAR(16) NOT NULL, 
	subject VARCHAR(255) NOT NULL, 
	user_id INTEGER NOT NULL, 
	created_at DATETIME NOT NULL, 
	PRIMARY KEY (id), 
	UNIQUE (provider, subject), 
	FOREIGN KEY(user_id) REFERENCES auth_user (id) ON DELETE CASCADE
);

CREATE INDEX ix_auth_identity_user_id ON auth_identity (user_id);

CREATE TABLE play_action (
	table_id VARCHAR(16) NOT NULL, 
	seq INTEGER NOT NULL, 
	text VARCHAR(64) NOT NULL, 
	seat INTEGER, 
	at DATETIME NOT NULL, 
	PRIMARY KEY (table_id, seq), 
	FOREIGN KEY(table_id) REFERENCES play_table (id)
);

CREATE TABLE social_friendship (
	id INTEGER NOT NULL, 
	asker INTEGER NOT NULL, 
	asked INTEGER NOT NULL, 
	low INTEGER NOT NULL, 
	high INTEGER NOT NULL, 
	status VARCHAR(10) NOT NULL, 
	created_at DATETIME NOT NULL, 
	accepted_at DATETIME, 
	PRIMARY KEY (id), 
	UNIQUE (low, high), 
	CONSTRAINT not_yourself CHECK (low < high), 
	FOREIGN KEY(asker) REFERENCES auth_user (id) ON DELETE CASCADE, 
	FOREIGN KEY(asked) REFERENCES auth_user (id) ON DELETE CASCADE
);

CREATE INDEX ix_social_friendship_asked ON social_friendship (asked);

CREATE INDEX ix_social_friendship_asker ON social_friendship (asker);

CREATE TABLE ranking_rating (
	user_id INTEGER NOT NULL, 
	game VARCHAR(16) NOT NULL, 
	rating FLOAT NOT NULL, 
	games INTEGER NOT NULL, 
	wins INTEGER NOT NULL, 
	draws INTEGER NOT NULL, 
	losses INTEGER NOT NULL, 
	updated_at DATETIME NOT NULL, 
	PRIMARY KEY (user_id, game), 
	FOREIGN KEY(user_id) REFERENCES auth_user (id) ON DELETE CASCADE
);

CREATE INDEX ranking_rating_board ON ranking_rating (game, rating);

CREATE TABLE ranking_result (
	table_id VARCHAR(16) NOT NULL, 
	user_id INTEGER NOT NULL, 
	game VARCHAR(16) NOT NULL, 
	seat INTEGER NOT NULL, 
	team INTEGER NOT NULL, 
	score FLOAT NOT NULL, 
	"before" FLOAT NOT NULL, 
	"after" FLOAT NOT NULL, 
	rated_at DATETIME NOT NULL, 
	PRIMARY KEY (table_id, user_id), 
	FOREIGN KEY(table_id) REFERENCES ranking_table (table_id), 
	FOREIGN KEY(user_id) REFERENCES auth_user (id) ON DELETE CASCADE
);

CREATE INDEX ranking_result_history ON ranking_result (user_id, game, rated_at);

