BEGIN TRANSACTION;
CREATE TABLE games (
        id TEXT PRIMARY KEY,
        token_hash TEXT NOT NULL,
        nrows INTEGER NOT NULL,
        ncols INTEGER NOT NULL,
        nmines BIGINT NOT NULL,
        rule TEXT NOT NULL,
        seed BIGINT NOT NULL,
        player TEXT NOT NULL,
        preset TEXT,
        created_at DOUBLE PRECISION NOT NULL,
        layout TEXT,
        status TEXT NOT NULL,
        version INTEGER NOT NULL
    , assisted BOOLEAN NOT NULL DEFAULT FALSE);
INSERT INTO "games" VALUES('6a901c57b8b9828e','0edbaba1bb78fdd2e0ec4c382d763eade8d0b568fa5d67eb84db44f213fd0719',8,10,12,'opening',41,'Bea',NULL,1700000000.0,'[[6,7],[6,4],[1,6],[5,4],[7,7],[5,7],[6,0],[4,8],[1,2],[2,5],[0,8],[2,7]]','IN_PROGRESS',1,0);
CREATE TABLE moves (
        game_id TEXT NOT NULL REFERENCES games (id),
        seq INTEGER NOT NULL,
        move TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
INSERT INTO "moves" VALUES('6a901c57b8b9828e',1,'O3,3',1700000000.0);
CREATE TABLE race_moves (
        race_id TEXT NOT NULL REFERENCES races (id),
        seq INTEGER NOT NULL,
        move TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (race_id, seq)
    );
CREATE TABLE race_players (
        race_id TEXT NOT NULL REFERENCES races (id),
        player INTEGER NOT NULL,
        token_hash TEXT NOT NULL,
        PRIMARY KEY (race_id, player)
    );
CREATE TABLE races (
        id TEXT PRIMARY KEY,
        spec TEXT NOT NULL,
        created_at DOUBLE PRECISION NOT NULL,
        state TEXT NOT NULL,
        version INTEGER NOT NULL
    );
CREATE TABLE results (
        game_id TEXT PRIMARY KEY REFERENCES games (id),
        preset TEXT NOT NULL,
        no_guess BOOLEAN NOT NULL,
        player TEXT NOT NULL,
        time DOUBLE PRECISION NOT NULL,
        finished_at DOUBLE PRECISION NOT NULL
    );
CREATE TABLE schema_version (version INTEGER NOT NULL);
INSERT INTO "schema_version" VALUES(2);
CREATE INDEX results_rank ON results (preset, no_guess, time);
COMMIT;
