import GRDB

extension SQLiteCatalog {
    /// The schema's history; each migration runs once per database file.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: media") { db in
            try db.execute(
                sql: """
                    CREATE TABLE media (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        title TEXT NOT NULL,
                        description TEXT,
                        status TEXT NOT NULL DEFAULT 'pending'
                            CHECK (status IN ('pending', 'processing', 'ready', 'failed')),
                        hls_path TEXT,
                        duration REAL,
                        progress REAL NOT NULL DEFAULT 0,
                        error TEXT,
                        source_file_name TEXT NOT NULL,
                        source_path TEXT NOT NULL,
                        source_size INTEGER NOT NULL,
                        probe TEXT,
                        variants TEXT,
                        attempts INTEGER NOT NULL DEFAULT 0,
                        created_at TEXT NOT NULL DEFAULT (\(sqlNow)),
                        updated_at TEXT NOT NULL DEFAULT (\(sqlNow))
                    );
                    CREATE INDEX media_status ON media(status, id);
                    """
            )
        }
        migrator.registerMigration("v2: captions") { db in
            try db.execute(
                sql: """
                    CREATE TABLE captions (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        media_id INTEGER NOT NULL REFERENCES media(id) ON DELETE CASCADE,
                        language TEXT NOT NULL,
                        name TEXT NOT NULL,
                        is_default BOOLEAN NOT NULL DEFAULT 0,
                        created_at TEXT NOT NULL DEFAULT (\(sqlNow))
                    );
                    CREATE INDEX captions_media ON captions(media_id, id);
                    """
            )
        }
        migrator.registerMigration("v3: leases and workers") { db in
            try db.execute(
                sql: """
                    ALTER TABLE media ADD COLUMN lease_token INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE media ADD COLUMN lease_worker TEXT;
                    ALTER TABLE media ADD COLUMN lease_expires_at REAL;
                    CREATE TABLE workers (
                        id TEXT PRIMARY KEY,
                        host TEXT NOT NULL,
                        pid INTEGER NOT NULL,
                        jobs_done INTEGER NOT NULL DEFAULT 0,
                        started_at TEXT NOT NULL DEFAULT (\(sqlNow)),
                        heartbeat_at TEXT NOT NULL DEFAULT (\(sqlNow))
                    );
                    """
            )
        }
        migrator.registerMigration("v4: publishing") { db in
            try db.execute(
                sql: """
                    ALTER TABLE media ADD COLUMN started_at REAL;
                    ALTER TABLE media ADD COLUMN published_at TEXT;
                    ALTER TABLE media ADD COLUMN processing_seconds REAL;
                    """
            )
        }
        migrator.registerMigration("v5: rung progress") { db in
            try db.execute(sql: "ALTER TABLE media ADD COLUMN rung_progress TEXT")
        }
        migrator.registerMigration("v6: chunks") { db in
            try db.execute(
                sql: """
                    CREATE TABLE chunks (
                        media_id INTEGER NOT NULL REFERENCES media(id) ON DELETE CASCADE,
                        idx INTEGER NOT NULL,
                        output_path TEXT NOT NULL,
                        spec TEXT NOT NULL,
                        status TEXT NOT NULL DEFAULT 'pending'
                            CHECK (status IN ('pending', 'processing', 'done', 'failed')),
                        attempts INTEGER NOT NULL DEFAULT 0,
                        error TEXT,
                        lease_token INTEGER NOT NULL DEFAULT 0,
                        lease_worker TEXT,
                        lease_expires_at REAL,
                        updated_at TEXT NOT NULL DEFAULT (\(sqlNow)),
                        PRIMARY KEY (media_id, idx)
                    );
                    CREATE INDEX chunks_status ON chunks(status, media_id, idx);
                    """
            )
        }
        return migrator
    }
}
