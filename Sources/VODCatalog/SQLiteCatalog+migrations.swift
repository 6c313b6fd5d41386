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
        migrator.registerMigration("v7: events and webhooks") { db in
            try db.execute(
                sql: """
                    CREATE TABLE events (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        type TEXT NOT NULL,
                        media_id INTEGER NOT NULL,
                        item TEXT NOT NULL,
                        created_at TEXT NOT NULL DEFAULT (\(sqlNow)),
                        created_epoch REAL NOT NULL DEFAULT \(sqlEpoch)
                    );
                    CREATE INDEX events_media ON events(media_id, id);
                    CREATE INDEX events_age ON events(created_epoch);
                    CREATE TABLE webhook_cursors (
                        url TEXT PRIMARY KEY,
                        last_event_id INTEGER NOT NULL
                    );
                    CREATE TABLE webhook_deliveries (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        url TEXT NOT NULL,
                        event_id INTEGER NOT NULL REFERENCES events(id) ON DELETE CASCADE,
                        status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
                        attempts INTEGER NOT NULL DEFAULT 0,
                        next_attempt_at REAL NOT NULL DEFAULT \(sqlEpoch),
                        last_status INTEGER,
                        last_error TEXT,
                        lease_worker TEXT,
                        lease_expires_at REAL,
                        created_at TEXT NOT NULL DEFAULT (\(sqlNow)),
                        updated_at TEXT NOT NULL DEFAULT (\(sqlNow))
                    );
                    CREATE INDEX webhook_deliveries_due ON webhook_deliveries(status, next_attempt_at);
                    CREATE INDEX webhook_deliveries_recent ON webhook_deliveries(updated_at);
                    CREATE INDEX webhook_deliveries_event ON webhook_deliveries(event_id);
                    """
            )
        }
        migrator.registerMigration("v8: stored summaries") { db in
            try db.execute(sql: "ALTER TABLE media ADD COLUMN source_summary TEXT; ALTER TABLE media ADD COLUMN tracks TEXT")
        }
        migrator.registerMigration("v9: visibility") { db in
            try db.execute(
                sql: "ALTER TABLE media ADD COLUMN visibility TEXT NOT NULL DEFAULT 'public' CHECK (visibility IN ('public', 'private'))"
            )
        }
        migrator.registerMigration("v10: signatures") { db in
            try db.execute(
                sql: """
                    CREATE TABLE signatures (
                        signature TEXT PRIMARY KEY,
                        expires_at INTEGER NOT NULL
                    );
                    CREATE INDEX signatures_expiry ON signatures(expires_at);
                    """
            )
        }
        migrator.registerMigration("v11: title keys") { db in
            try db.execute(
                sql: """
                    CREATE TABLE title_keys (
                        media_id INTEGER PRIMARY KEY REFERENCES media(id) ON DELETE CASCADE,
                        key BLOB NOT NULL CHECK (length(key) = 16)
                    )
                    """
            )
        }
        migrator.registerMigration("v12: segment format") { db in
            try db.execute(
                sql: "ALTER TABLE media ADD COLUMN segment_format TEXT NOT NULL DEFAULT 'ts' CHECK (segment_format IN ('ts', 'fmp4'))"
            )
        }
        return migrator
    }
}
