BEGIN TRANSACTION;
CREATE TABLE accounts (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            skeleton TEXT NOT NULL UNIQUE,
            skeleton_cased TEXT NOT NULL UNIQUE,
            password_hash TEXT NOT NULL,
            created_at DOUBLE PRECISION NOT NULL
        );
INSERT INTO "accounts" VALUES('beb43e6cd73f74e2','Ann','ann','ann','$argon2id$v=19$m=65536,t=3,p=4$MsBcXgSC3iBmwvffkA9nEA$f6OkAEuf7UktWtpAoOUZPiqyS4aR5YOqfo6r95QdvLI',1700000000.0);
CREATE TABLE daily_boards (
            day TEXT NOT NULL,
            preset TEXT NOT NULL,
            no_guess BOOLEAN NOT NULL,
            seed BIGINT NOT NULL,
            PRIMARY KEY (day, preset, no_guess)
        );
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
    , assisted BOOLEAN NOT NULL DEFAULT FALSE, wasted INTEGER NOT NULL DEFAULT 0, account_id TEXT REFERENCES accounts (id), finished_at DOUBLE PRECISION, elapsed DOUBLE PRECISION, three_bv INTEGER, daily TEXT);
INSERT INTO "games" VALUES('f54b20425d7d0e1f','e720296b81c54e0af6b73a4fdb6eb62e1f9c9fcc1ce041161cf1ff839f9dd283',9,9,10,'opening',1000,'Ann','beginner',1700000000.0,'mask:AABQAAMqAAMAAgA=','WON',28,0,44,'beb43e6cd73f74e2',1700000030.0,30.0,18,NULL);
CREATE TABLE moves (
        game_id TEXT NOT NULL REFERENCES games (id),
        seq INTEGER NOT NULL,
        move TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
INSERT INTO "moves" VALUES('f54b20425d7d0e1f',1,'O0,0',1700000000.0);
INSERT INTO "moves" VALUES('f54b20425d7d0e1f',2,'O0,8',1700000030.0);
INSERT INTO "moves" VALUES('f54b20425d7d0e1f',3,'O2,0',1700000030.0);
INSERT INTO "moves" VALUES('f54b20425d7d0e1f',4,'O2,8',1700000030.0);
INSERT INTO "moves" VALUES('f54b20425d7d0e1f',5,'O3,0',1700000030.0);
INSERT INTO "moves" VALUES('f54b20425d7d0e1f',6,'O3,1',1700000030.0);
INSERT INTO "moves" VALUES('f54b20425d7d0e1f',7,'O3,8',1700000030.0);
INSERT INTO "moves" VALUES('f54b20425d7d0e1f',8,'O4,0',1700000030.0);
INSERT INTO "moves" VALUES('f54b20425d7d0e1f',9,'O4,1',1700000030.0);
INSERT INTO "moves" VALUES('f54b20425d7d0e1f',10,'O4,4',1700000030.0);
INSERT INTO "moves" VALUES('f54b20425d7d0e1f',11,'O4,5',1700000030.0);
INSERT INTO "moves" VALUES('f54b20425d7d0e1f',12,'O4,7',1700000030.0);
INSERT INTO "moves" VALUES('f54b20425d7d0e1f',13,'O5,0',1700000030.0);
INSERT INTO "moves" VALUES('f54b20425d7d0e1f',14,'O5,2',1700000030.0);
INSERT INTO "moves" VALUES('f54b20425d7d0e1f',15,'O5,3',1700000030.0);
INSERT INTO "moves" VALUES('f54b20425d7d0e1f',16,'O5,4',1700000030.0);
INSERT INTO "moves" VALUES('f54b20425d7d0e1f',17,'O5,5',1700000030.0);
INSERT INTO "moves" VALUES('f54b20425d7d0e1f',18,'O5,6',1700000030.0);
INSERT INTO "moves" VALUES('f54b20425d7d0e1f',19,'O5,7',1700000030.0);
INSERT INTO "moves" VALUES('f54b20425d7d0e1f',20,'O5,8',1700000030.0);
INSERT INTO "moves" VALUES('f54b20425d7d0e1f',21,'O6,0',1700000030.0);
INSERT INTO "moves" VALUES('f54b20425d7d0e1f',22,'O6,1',1700000030.0);
INSERT INTO "moves" VALUES('f54b20425d7d0e1f',23,'O6,2',1700000030.0);
INSERT INTO "moves" VALUES('f54b20425d7d0e1f',24,'O6,3',1700000030.0);
INSERT INTO "moves" VALUES('f54b20425d7d0e1f',25,'O7,8',1700000030.0);
INSERT INTO "moves" VALUES('f54b20425d7d0e1f',26,'O8,0',1700000030.0);
INSERT INTO "moves" VALUES('f54b20425d7d0e1f',27,'O8,7',1700000030.0);
INSERT INTO "moves" VALUES('f54b20425d7d0e1f',28,'O8,8',1700000030.0);
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
    , account_id TEXT REFERENCES accounts (id), daily TEXT);
INSERT INTO "results" VALUES('f54b20425d7d0e1f','beginner',0,'Ann',30.0,1700000030.0,'beb43e6cd73f74e2',NULL);
CREATE TABLE reviews (
            game_id TEXT PRIMARY KEY REFERENCES games (id),
            format INTEGER NOT NULL,
            body TEXT NOT NULL
        , refused BOOLEAN NOT NULL DEFAULT FALSE);
CREATE TABLE schema_version (version INTEGER NOT NULL);
INSERT INTO "schema_version" VALUES(10);
CREATE TABLE sessions (
            token_hash TEXT PRIMARY KEY,
            account_id TEXT NOT NULL REFERENCES accounts (id),
            created_at DOUBLE PRECISION NOT NULL,
            expires_at DOUBLE PRECISION NOT NULL
        );
INSERT INTO "sessions" VALUES('c2ab564350ec77ed07004d900a1de460ae7b020b4e46db03c128b0cb0a7905b6','beb43e6cd73f74e2',1700000000.0,1702592000.0);
CREATE INDEX results_rank ON results (preset, no_guess, time);
CREATE INDEX sessions_account ON sessions (account_id);
CREATE INDEX results_account ON results (account_id);
CREATE INDEX games_account ON games (account_id, finished_at);
COMMIT;
