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
    , assisted BOOLEAN NOT NULL DEFAULT FALSE, wasted INTEGER NOT NULL DEFAULT 0);
INSERT INTO "games" VALUES('3e1edc68523290d7','e6dd43f61ac5d21667c98e6ed5994031ef1b8cf1f2d16ca41ddae4cd65412564',9,9,10,'opening',1000,'Ann','beginner',1700000000.0,'mask:AAoAABoMAAGAAgA=','WON',14,0,52);
INSERT INTO "games" VALUES('653a7c966f2e12e5','5600a61a11725a690eaf50b62558f3ed2be9b7ff0a5520f89f9812055a534044',9,9,10,'opening',1001,'Bea','beginner',1700000034.0,NULL,'IN_PROGRESS',0,0,0);
CREATE TABLE moves (
        game_id TEXT NOT NULL REFERENCES games (id),
        seq INTEGER NOT NULL,
        move TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
INSERT INTO "moves" VALUES('3e1edc68523290d7',1,'O4,4',1700000001.0);
INSERT INTO "moves" VALUES('3e1edc68523290d7',2,'O0,0',1700000001.5);
INSERT INTO "moves" VALUES('3e1edc68523290d7',3,'O0,3',1700000003.0);
INSERT INTO "moves" VALUES('3e1edc68523290d7',4,'O0,4',1700000003.5);
INSERT INTO "moves" VALUES('3e1edc68523290d7',5,'O0,5',1700000004.0);
INSERT INTO "moves" VALUES('3e1edc68523290d7',6,'O0,6',1700000004.5);
INSERT INTO "moves" VALUES('3e1edc68523290d7',7,'O0,7',1700000005.0);
INSERT INTO "moves" VALUES('3e1edc68523290d7',8,'O1,4',1700000007.5);
INSERT INTO "moves" VALUES('3e1edc68523290d7',9,'O4,1',1700000018.0);
INSERT INTO "moves" VALUES('3e1edc68523290d7',10,'O5,1',1700000021.0);
INSERT INTO "moves" VALUES('3e1edc68523290d7',11,'O6,0',1700000025.0);
INSERT INTO "moves" VALUES('3e1edc68523290d7',12,'O6,1',1700000025.5);
INSERT INTO "moves" VALUES('3e1edc68523290d7',13,'O8,0',1700000033.0);
INSERT INTO "moves" VALUES('3e1edc68523290d7',14,'O8,1',1700000033.5);
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
INSERT INTO "results" VALUES('3e1edc68523290d7','beginner',0,'Ann',32.5,1700000033.5);
CREATE TABLE reviews (
            game_id TEXT PRIMARY KEY REFERENCES games (id),
            format INTEGER NOT NULL,
            body TEXT NOT NULL
        );
CREATE TABLE schema_version (version INTEGER NOT NULL);
INSERT INTO "schema_version" VALUES(5);
CREATE INDEX results_rank ON results (preset, no_guess, time);
COMMIT;
