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
    );
INSERT INTO "games" VALUES('6b7bcbd90c7d3c43','d9ab11e2531af0b86f304e617d8b4453d9b846ab50c1a0bad8938730df3194b3',9,9,10,'opening',42,'Ada','beginner',1700000000.0,'[[8,5],[6,4],[0,5],[5,6],[3,1],[3,2],[6,3],[0,6],[1,5],[7,4]]','IN_PROGRESS',2);
CREATE TABLE moves (
        game_id TEXT NOT NULL REFERENCES games (id),
        seq INTEGER NOT NULL,
        move TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
INSERT INTO "moves" VALUES('6b7bcbd90c7d3c43',1,'O4,4',1700000001.0);
INSERT INTO "moves" VALUES('6b7bcbd90c7d3c43',2,'F0,0',1700000003.0);
CREATE TABLE results (
        game_id TEXT PRIMARY KEY REFERENCES games (id),
        preset TEXT NOT NULL,
        no_guess BOOLEAN NOT NULL,
        player TEXT NOT NULL,
        time DOUBLE PRECISION NOT NULL,
        finished_at DOUBLE PRECISION NOT NULL
    );
CREATE INDEX results_rank ON results (preset, no_guess, time);
COMMIT;
