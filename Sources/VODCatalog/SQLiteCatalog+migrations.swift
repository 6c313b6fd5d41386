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
        return migrator
    }
}
