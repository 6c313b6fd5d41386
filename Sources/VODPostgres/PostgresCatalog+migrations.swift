import PostgresNIO

extension PostgresCatalog {
    /// The schema's history, in order; each runs once per database, under an advisory lock so that processes
    /// starting together do not race. The same tables and meanings as the SQLite catalog's.
    static let migrations: [(name: String, sql: [String])] = [
        ("v1: media", [
            """
            CREATE TABLE media (
                id BIGSERIAL PRIMARY KEY,
                title TEXT NOT NULL,
                description TEXT,
                status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'processing', 'ready', 'failed')),
                hls_path TEXT,
                duration DOUBLE PRECISION,
                progress DOUBLE PRECISION NOT NULL DEFAULT 0,
                error TEXT,
                source_file_name TEXT NOT NULL,
                source_path TEXT NOT NULL,
                source_size BIGINT NOT NULL,
                probe TEXT,
                variants TEXT,
                attempts BIGINT NOT NULL DEFAULT 0,
                created_at TEXT NOT NULL DEFAULT \(pgNow),
                updated_at TEXT NOT NULL DEFAULT \(pgNow)
            )
            """,
            "CREATE INDEX media_status ON media (status, id)",
        ]),
        ("v2: captions", [
            """
            CREATE TABLE captions (
                id BIGSERIAL PRIMARY KEY,
                media_id BIGINT NOT NULL REFERENCES media (id) ON DELETE CASCADE,
                language TEXT NOT NULL,
                name TEXT NOT NULL,
                is_default BOOLEAN NOT NULL DEFAULT false,
                created_at TEXT NOT NULL DEFAULT \(pgNow)
            )
            """,
            "CREATE INDEX captions_media ON captions (media_id, id)",
        ]),
        ("v3: leases and workers", [
            "ALTER TABLE media ADD COLUMN lease_token BIGINT NOT NULL DEFAULT 0",
            "ALTER TABLE media ADD COLUMN lease_worker TEXT",
            "ALTER TABLE media ADD COLUMN lease_expires_at DOUBLE PRECISION",
            """
            CREATE TABLE workers (
                id TEXT PRIMARY KEY,
                host TEXT NOT NULL,
                pid BIGINT NOT NULL,
                jobs_done BIGINT NOT NULL DEFAULT 0,
                started_at TEXT NOT NULL DEFAULT \(pgNow),
                heartbeat_at TEXT NOT NULL DEFAULT \(pgNow)
            )
            """,
        ]),
        ("v4: publishing", [
            "ALTER TABLE media ADD COLUMN started_at DOUBLE PRECISION",
            "ALTER TABLE media ADD COLUMN published_at TEXT",
            "ALTER TABLE media ADD COLUMN processing_seconds DOUBLE PRECISION",
        ]),
        ("v5: rung progress", ["ALTER TABLE media ADD COLUMN rung_progress TEXT"]),
        ("v6: chunks", [
            """
            CREATE TABLE chunks (
                media_id BIGINT NOT NULL REFERENCES media (id) ON DELETE CASCADE,
                idx BIGINT NOT NULL,
                output_path TEXT NOT NULL,
                spec TEXT NOT NULL,
                status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'processing', 'done', 'failed')),
                attempts BIGINT NOT NULL DEFAULT 0,
                error TEXT,
                lease_token BIGINT NOT NULL DEFAULT 0,
                lease_worker TEXT,
                lease_expires_at DOUBLE PRECISION,
                updated_at TEXT NOT NULL DEFAULT \(pgNow),
                PRIMARY KEY (media_id, idx)
            )
            """,
            "CREATE INDEX chunks_status ON chunks (status, media_id, idx)",
        ]),
        ("v7: events and webhooks", [
            """
            CREATE TABLE events (
                id BIGSERIAL PRIMARY KEY,
                type TEXT NOT NULL,
                media_id BIGINT NOT NULL,
                item TEXT NOT NULL,
                created_at TEXT NOT NULL DEFAULT \(pgNow),
                created_epoch DOUBLE PRECISION NOT NULL DEFAULT (\(pgEpoch))
            )
            """,
            "CREATE INDEX events_media ON events (media_id, id)",
            "CREATE INDEX events_age ON events (created_epoch)",
            "CREATE TABLE webhook_cursors (url TEXT PRIMARY KEY, last_event_id BIGINT NOT NULL)",
            """
            CREATE TABLE webhook_deliveries (
                id BIGSERIAL PRIMARY KEY,
                url TEXT NOT NULL,
                event_id BIGINT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
                status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
                attempts BIGINT NOT NULL DEFAULT 0,
                next_attempt_at DOUBLE PRECISION NOT NULL DEFAULT (\(pgEpoch)),
                last_status BIGINT,
                last_error TEXT,
                lease_worker TEXT,
                lease_expires_at DOUBLE PRECISION,
                created_at TEXT NOT NULL DEFAULT \(pgNow),
                updated_at TEXT NOT NULL DEFAULT \(pgNow)
            )
            """,
            "CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at)",
            "CREATE INDEX webhook_deliveries_recent ON webhook_deliveries (updated_at)",
            "CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id)",
        ]),
        ("v8: stored summaries", [
            "ALTER TABLE media ADD COLUMN source_summary TEXT",
            "ALTER TABLE media ADD COLUMN tracks TEXT",
        ]),
        ("v9: visibility", [
            "ALTER TABLE media ADD COLUMN visibility TEXT NOT NULL DEFAULT 'public' CHECK (visibility IN ('public', 'private'))",
        ]),
        ("v10: signatures", [
            "CREATE TABLE signatures (signature TEXT PRIMARY KEY, expires_at BIGINT NOT NULL)",
            "CREATE INDEX signatures_expiry ON signatures (expires_at)",
        ]),
        ("v11: title keys", [
            "CREATE TABLE title_keys (media_id BIGINT PRIMARY KEY REFERENCES media (id) ON DELETE CASCADE, key BYTEA NOT NULL CHECK (length(key) = 16))",
        ]),
        ("v12: segment format", [
            "ALTER TABLE media ADD COLUMN segment_format TEXT NOT NULL DEFAULT 'ts' CHECK (segment_format IN ('ts', 'fmp4'))",
        ]),
    ]

    /// Applies the migrations this database has not had yet.
    func migrate() async throws {
        try await transaction { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(7305002)", logger: logger)
            try await connection.query("CREATE TABLE IF NOT EXISTS vod_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL DEFAULT \(unescaped: pgNow))", logger: logger)
            let applied = Set(try await connection.query("SELECT name FROM vod_migrations", logger: logger).map { try $0.decode(String.self) })
            for migration in Self.migrations where !applied.contains(migration.name) {
                for statement in migration.sql {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query("INSERT INTO vod_migrations (name) VALUES (\(migration.name))", logger: logger)
            }
        }
    }
}
