import GRDB

extension MediaItem: FetchableRecord {
    public init(row: Row) throws {
        let status: String = row["status"]
        guard let mediaStatus = MediaStatus(rawValue: status) else {
            throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "unknown media status \(status)")
        }
        self.init(
            id: row["id"],
            title: row["title"],
            description: row["description"],
            status: mediaStatus,
            hlsPath: row["hls_path"],
            duration: row["duration"],
            progress: row["progress"],
            error: row["error"],
            sourceFileName: row["source_file_name"],
            sourcePath: row["source_path"],
            sourceSize: row["source_size"],
            probeJSON: row["probe"],
            variantsJSON: row["variants"],
            attempts: row["attempts"],
            createdAt: row["created_at"],
            updatedAt: row["updated_at"],
            leaseToken: row["lease_token"] ?? 0
        )
        publishedAt = row["published_at"]
        processingSeconds = row["processing_seconds"]
        rungProgressJSON = row["rung_progress"]
        sourceSummaryJSON = row["source_summary"]
        tracksJSON = row["tracks"]
        let visibility: String = row["visibility"]
        guard let mediaVisibility = MediaVisibility(rawValue: visibility) else {
            throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "unknown media visibility \(visibility)")
        }
        self.visibility = mediaVisibility
        let format: String = row["segment_format"]
        guard let segmentFormat = SegmentFormat(rawValue: format) else {
            throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "unknown segment format \(format)")
        }
        self.segmentFormat = segmentFormat
    }
}
