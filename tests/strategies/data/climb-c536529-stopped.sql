-- A results file as release c536529 (2026-12-01, before the layout step; version 0.2.0)
-- wrote it: `search climb --deck plain=10,J=2,Q=2,K=2 --deals 40000 --chunk-size 10000
-- --seed 11 --top 10 --workers 1`, stopped by two Ctrl-Cs once chunk 0 was stored (the chunk
-- in flight dropped: status 'stopped', 1 of 4 chunks).  `sqlite3 FILE .dump`, with the
-- file's application_id and user_version added last (a dump leaves them out).
-- Read by tests/strategies/test_old_runs.py.
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    strategy TEXT NOT NULL,
    params TEXT NOT NULL,
    version TEXT NOT NULL,
    status TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    deals INTEGER NOT NULL DEFAULT 0,
    loops INTEGER NOT NULL DEFAULT 0,
    caps INTEGER NOT NULL DEFAULT 0,
    cards INTEGER NOT NULL DEFAULT 0,
    wins TEXT NOT NULL DEFAULT '[]',
    chunks INTEGER NOT NULL DEFAULT 0,
    seconds REAL NOT NULL DEFAULT 0,  -- worker time summed over chunks
    elapsed REAL NOT NULL DEFAULT 0   -- wall-clock time spent searching, over all sittings
);
INSERT INTO runs VALUES(1,'climb','{"deck": "plain=10,J=2,Q=2,K=2", "players": 2, "seed": 11, "top_k": 10, "max_tricks": null, "chunk_size": 10000, "hours": null, "deals": 40000, "start_deal": null, "extend": 8, "closure_states": 200000, "engine": "bitboard"}','0.2.0','stopped',1796346643.7866275311,1796346643.8501956463,10262,1,0,313215,'[4941, 5320]',1,0.054510271999902215611,0.054765681000048971327);
CREATE TABLE chunks (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    chunk INTEGER NOT NULL,
    deals INTEGER NOT NULL,
    loops INTEGER NOT NULL,
    cards INTEGER NOT NULL,
    seconds REAL NOT NULL,
    finished REAL NOT NULL,
    PRIMARY KEY (run_id, chunk)
);
INSERT INTO chunks VALUES(1,0,10262,1,313215,0.054510271999902215611,1796346643.8487200736);
CREATE TABLE games (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    board TEXT NOT NULL,              -- 'longest' or 'loops'
    deal TEXT NOT NULL,
    number TEXT NOT NULL,             -- deal index or deal number in the run (may exceed 2**63)
    chunk INTEGER NOT NULL,
    position INTEGER NOT NULL,
    outcome TEXT NOT NULL,
    cards INTEGER NOT NULL,
    tricks INTEGER NOT NULL,
    winner INTEGER NOT NULL,
    preperiod_tricks INTEGER NOT NULL,
    preperiod_cards INTEGER NOT NULL,
    period_tricks INTEGER NOT NULL,
    period_cards INTEGER NOT NULL,
    cycle TEXT,
    found REAL NOT NULL
);
INSERT INTO games VALUES(1,'longest','--J----J/-Q---KQK','10008',0,10008,'win',302,52,2,0,0,0,0,NULL,1796346643.8487200736);
INSERT INTO games VALUES(1,'longest','-J---J--/Q--KQK--','10020',0,10020,'win',298,52,2,0,0,0,0,NULL,1796346643.8487200736);
INSERT INTO games VALUES(1,'longest','J--J---Q/-KQK----','10036',0,10036,'win',294,52,2,0,0,0,0,NULL,1796346643.8487200736);
INSERT INTO games VALUES(1,'longest','J--K-Q--/----K-JQ','10039',0,10039,'win',282,49,2,0,0,0,0,NULL,1796346643.8487200736);
INSERT INTO games VALUES(1,'longest','-K-Q--J-/--K-JQ--','2180',0,2180,'win',278,48,2,0,0,0,0,NULL,1796346643.8487200736);
INSERT INTO games VALUES(1,'longest','-K-Q-J-Q/--K-J---','10029',0,10029,'win',277,48,2,0,0,0,0,NULL,1796346643.8487200736);
INSERT INTO games VALUES(1,'longest','K-Q--Q-J/-K-J----','10051',0,10051,'win',273,47,2,0,0,0,0,NULL,1796346643.8487200736);
INSERT INTO games VALUES(1,'longest','--Q--Q-J/K-J----K','10016',0,10016,'win',272,47,2,0,0,0,0,NULL,1796346643.8487200736);
INSERT INTO games VALUES(1,'longest','-Q---KJ-/--Q-J--K','10024',0,10024,'win',253,44,2,0,0,0,0,NULL,1796346643.8487200736);
INSERT INTO games VALUES(1,'longest','Q--KJ---/-QJ--K--','10042',0,10042,'win',249,44,2,0,0,0,0,NULL,1796346643.8487200736);
INSERT INTO games VALUES(1,'loops','-J-J---Q/Q--KK---','5839',0,5839,'loop',76,17,0,1,4,16,72,'95473839eaa1902f',1796346643.8487200736);
CREATE TABLE cycles (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    cycle TEXT NOT NULL,
    period_tricks INTEGER NOT NULL,
    period_cards INTEGER NOT NULL,
    deals INTEGER NOT NULL,           -- distinct deals reaching it
    example TEXT NOT NULL,            -- the deal reaching it met first in the run
    found REAL NOT NULL,
    example_chunk INTEGER NOT NULL,
    example_position INTEGER NOT NULL,
    state TEXT,                       -- a state on the cycle, 'leader:hands' (the hunter)
    state_chunk INTEGER,              -- where the run met that state first
    state_position INTEGER,
    reach_states INTEGER,             -- states whose play enters it (the hunter's reach)
    reach_complete INTEGER,           -- whether that backward search finished
    generation INTEGER,               -- the factory: 0 for a start, parent's + 1 for a find
    parent TEXT,                      -- the cycle whose state a move turned into this one
    move TEXT,                        -- that move ('start', 'random state', 'mirror', ...)
    mirror TEXT,                      -- the cycle with the players renamed (hands swapped)
    own_mirror INTEGER,               -- whether it is its own mirror
    reach_depth INTEGER,              -- most tricks from a state of its in-tree to it
    fair_deals INTEGER,               -- fair deals entering it, player 1 to lead
    fair_deals_swapped INTEGER,       -- fair deals entering it, player 2 to lead
    PRIMARY KEY (run_id, cycle)
);
INSERT INTO cycles VALUES(1,'95473839eaa1902f',16,72,1,'-J-J---Q/Q--KK---',1796346643.8487200736,0,5839,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
CREATE TABLE moves (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    move TEXT NOT NULL,               -- a kind of move of the factory
    tries INTEGER NOT NULL,           -- distinct states that kind of move gave and played
    loops INTEGER NOT NULL,
    cycles INTEGER NOT NULL,          -- new cycles met (counted per chunk)
    PRIMARY KEY (run_id, move)
);
CREATE TABLE links (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    source TEXT NOT NULL,             -- a factory's cycle whose state a move changed
    target TEXT NOT NULL,             -- a cycle known already that the changed state entered
    PRIMARY KEY (run_id, source, target)
);
CREATE TABLE histogram (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    cards INTEGER NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (run_id, cards)
);
INSERT INTO histogram VALUES(1,11,39);
INSERT INTO histogram VALUES(1,12,235);
INSERT INTO histogram VALUES(1,13,619);
INSERT INTO histogram VALUES(1,14,1020);
INSERT INTO histogram VALUES(1,15,1029);
INSERT INTO histogram VALUES(1,16,754);
INSERT INTO histogram VALUES(1,17,445);
INSERT INTO histogram VALUES(1,18,285);
INSERT INTO histogram VALUES(1,19,195);
INSERT INTO histogram VALUES(1,20,158);
INSERT INTO histogram VALUES(1,21,158);
INSERT INTO histogram VALUES(1,22,152);
INSERT INTO histogram VALUES(1,23,217);
INSERT INTO histogram VALUES(1,24,230);
INSERT INTO histogram VALUES(1,25,213);
INSERT INTO histogram VALUES(1,26,251);
INSERT INTO histogram VALUES(1,27,196);
INSERT INTO histogram VALUES(1,28,224);
INSERT INTO histogram VALUES(1,29,200);
INSERT INTO histogram VALUES(1,30,202);
INSERT INTO histogram VALUES(1,31,165);
INSERT INTO histogram VALUES(1,32,134);
INSERT INTO histogram VALUES(1,33,163);
INSERT INTO histogram VALUES(1,34,129);
INSERT INTO histogram VALUES(1,35,136);
INSERT INTO histogram VALUES(1,36,128);
INSERT INTO histogram VALUES(1,37,109);
INSERT INTO histogram VALUES(1,38,108);
INSERT INTO histogram VALUES(1,39,117);
INSERT INTO histogram VALUES(1,40,95);
INSERT INTO histogram VALUES(1,41,77);
INSERT INTO histogram VALUES(1,42,82);
INSERT INTO histogram VALUES(1,43,101);
INSERT INTO histogram VALUES(1,44,78);
INSERT INTO histogram VALUES(1,45,94);
INSERT INTO histogram VALUES(1,46,90);
INSERT INTO histogram VALUES(1,47,71);
INSERT INTO histogram VALUES(1,48,77);
INSERT INTO histogram VALUES(1,49,70);
INSERT INTO histogram VALUES(1,50,71);
INSERT INTO histogram VALUES(1,51,60);
INSERT INTO histogram VALUES(1,52,55);
INSERT INTO histogram VALUES(1,53,60);
INSERT INTO histogram VALUES(1,54,58);
INSERT INTO histogram VALUES(1,55,50);
INSERT INTO histogram VALUES(1,56,53);
INSERT INTO histogram VALUES(1,57,40);
INSERT INTO histogram VALUES(1,58,39);
INSERT INTO histogram VALUES(1,59,39);
INSERT INTO histogram VALUES(1,60,31);
INSERT INTO histogram VALUES(1,61,44);
INSERT INTO histogram VALUES(1,62,31);
INSERT INTO histogram VALUES(1,63,39);
INSERT INTO histogram VALUES(1,64,24);
INSERT INTO histogram VALUES(1,65,26);
INSERT INTO histogram VALUES(1,66,16);
INSERT INTO histogram VALUES(1,67,26);
INSERT INTO histogram VALUES(1,68,28);
INSERT INTO histogram VALUES(1,69,21);
INSERT INTO histogram VALUES(1,70,24);
INSERT INTO histogram VALUES(1,71,21);
INSERT INTO histogram VALUES(1,72,13);
INSERT INTO histogram VALUES(1,73,17);
INSERT INTO histogram VALUES(1,74,24);
INSERT INTO histogram VALUES(1,75,14);
INSERT INTO histogram VALUES(1,76,17);
INSERT INTO histogram VALUES(1,77,10);
INSERT INTO histogram VALUES(1,78,15);
INSERT INTO histogram VALUES(1,79,18);
INSERT INTO histogram VALUES(1,80,13);
INSERT INTO histogram VALUES(1,81,14);
INSERT INTO histogram VALUES(1,82,12);
INSERT INTO histogram VALUES(1,83,11);
INSERT INTO histogram VALUES(1,84,16);
INSERT INTO histogram VALUES(1,85,15);
INSERT INTO histogram VALUES(1,86,11);
INSERT INTO histogram VALUES(1,87,8);
INSERT INTO histogram VALUES(1,88,9);
INSERT INTO histogram VALUES(1,89,11);
INSERT INTO histogram VALUES(1,90,8);
INSERT INTO histogram VALUES(1,91,7);
INSERT INTO histogram VALUES(1,92,7);
INSERT INTO histogram VALUES(1,93,6);
INSERT INTO histogram VALUES(1,94,6);
INSERT INTO histogram VALUES(1,95,10);
INSERT INTO histogram VALUES(1,96,11);
INSERT INTO histogram VALUES(1,97,8);
INSERT INTO histogram VALUES(1,98,4);
INSERT INTO histogram VALUES(1,99,4);
INSERT INTO histogram VALUES(1,100,7);
INSERT INTO histogram VALUES(1,101,6);
INSERT INTO histogram VALUES(1,102,10);
INSERT INTO histogram VALUES(1,103,7);
INSERT INTO histogram VALUES(1,105,7);
INSERT INTO histogram VALUES(1,106,7);
INSERT INTO histogram VALUES(1,107,1);
INSERT INTO histogram VALUES(1,108,2);
INSERT INTO histogram VALUES(1,109,7);
INSERT INTO histogram VALUES(1,110,8);
INSERT INTO histogram VALUES(1,111,1);
INSERT INTO histogram VALUES(1,112,5);
INSERT INTO histogram VALUES(1,113,6);
INSERT INTO histogram VALUES(1,114,3);
INSERT INTO histogram VALUES(1,115,7);
INSERT INTO histogram VALUES(1,116,3);
INSERT INTO histogram VALUES(1,117,4);
INSERT INTO histogram VALUES(1,118,3);
INSERT INTO histogram VALUES(1,119,5);
INSERT INTO histogram VALUES(1,120,5);
INSERT INTO histogram VALUES(1,121,3);
INSERT INTO histogram VALUES(1,122,2);
INSERT INTO histogram VALUES(1,123,2);
INSERT INTO histogram VALUES(1,124,4);
INSERT INTO histogram VALUES(1,125,3);
INSERT INTO histogram VALUES(1,126,3);
INSERT INTO histogram VALUES(1,127,3);
INSERT INTO histogram VALUES(1,128,2);
INSERT INTO histogram VALUES(1,129,4);
INSERT INTO histogram VALUES(1,131,1);
INSERT INTO histogram VALUES(1,132,4);
INSERT INTO histogram VALUES(1,133,2);
INSERT INTO histogram VALUES(1,134,4);
INSERT INTO histogram VALUES(1,135,4);
INSERT INTO histogram VALUES(1,136,2);
INSERT INTO histogram VALUES(1,137,2);
INSERT INTO histogram VALUES(1,138,3);
INSERT INTO histogram VALUES(1,139,3);
INSERT INTO histogram VALUES(1,141,2);
INSERT INTO histogram VALUES(1,142,1);
INSERT INTO histogram VALUES(1,143,2);
INSERT INTO histogram VALUES(1,144,2);
INSERT INTO histogram VALUES(1,145,2);
INSERT INTO histogram VALUES(1,147,1);
INSERT INTO histogram VALUES(1,148,1);
INSERT INTO histogram VALUES(1,149,5);
INSERT INTO histogram VALUES(1,150,2);
INSERT INTO histogram VALUES(1,151,3);
INSERT INTO histogram VALUES(1,152,3);
INSERT INTO histogram VALUES(1,153,1);
INSERT INTO histogram VALUES(1,154,3);
INSERT INTO histogram VALUES(1,155,2);
INSERT INTO histogram VALUES(1,156,2);
INSERT INTO histogram VALUES(1,157,2);
INSERT INTO histogram VALUES(1,158,1);
INSERT INTO histogram VALUES(1,159,1);
INSERT INTO histogram VALUES(1,160,1);
INSERT INTO histogram VALUES(1,161,2);
INSERT INTO histogram VALUES(1,162,1);
INSERT INTO histogram VALUES(1,163,2);
INSERT INTO histogram VALUES(1,165,1);
INSERT INTO histogram VALUES(1,167,1);
INSERT INTO histogram VALUES(1,168,2);
INSERT INTO histogram VALUES(1,172,2);
INSERT INTO histogram VALUES(1,173,1);
INSERT INTO histogram VALUES(1,174,2);
INSERT INTO histogram VALUES(1,176,1);
INSERT INTO histogram VALUES(1,177,1);
INSERT INTO histogram VALUES(1,179,1);
INSERT INTO histogram VALUES(1,180,1);
INSERT INTO histogram VALUES(1,181,1);
INSERT INTO histogram VALUES(1,183,2);
INSERT INTO histogram VALUES(1,187,1);
INSERT INTO histogram VALUES(1,191,1);
INSERT INTO histogram VALUES(1,193,1);
INSERT INTO histogram VALUES(1,194,1);
INSERT INTO histogram VALUES(1,197,1);
INSERT INTO histogram VALUES(1,198,1);
INSERT INTO histogram VALUES(1,203,1);
INSERT INTO histogram VALUES(1,204,1);
INSERT INTO histogram VALUES(1,208,1);
INSERT INTO histogram VALUES(1,215,1);
INSERT INTO histogram VALUES(1,219,1);
INSERT INTO histogram VALUES(1,224,1);
INSERT INTO histogram VALUES(1,229,1);
INSERT INTO histogram VALUES(1,230,1);
INSERT INTO histogram VALUES(1,234,1);
INSERT INTO histogram VALUES(1,241,1);
INSERT INTO histogram VALUES(1,248,1);
INSERT INTO histogram VALUES(1,249,1);
INSERT INTO histogram VALUES(1,253,1);
INSERT INTO histogram VALUES(1,272,1);
INSERT INTO histogram VALUES(1,273,1);
INSERT INTO histogram VALUES(1,277,1);
INSERT INTO histogram VALUES(1,278,1);
INSERT INTO histogram VALUES(1,282,1);
INSERT INTO histogram VALUES(1,294,1);
INSERT INTO histogram VALUES(1,298,1);
INSERT INTO histogram VALUES(1,302,1);
CREATE INDEX games_board ON games (run_id, board, cards DESC, chunk, position);
CREATE INDEX games_deal ON games (run_id, board, deal);
COMMIT;
PRAGMA application_id=1111836487;
PRAGMA user_version=2;
