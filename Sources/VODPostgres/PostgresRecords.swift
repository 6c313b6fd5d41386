import PostgresNIO
import VODCatalog

extension MediaItem {
    /// A `media` row, as `SELECT *` or `RETURNING *` gives it.
    init(postgres row: PostgresRandomAccessRow) throws {
        let status = try row["status"].decode(String.self)
        guard let mediaStatus = MediaStatus(rawValue: status) else { throw UnknownStatus(value: status) }
        self.init(
            id: try row["id"].decode(Int64.self),
            title: try row["title"].decode(String.self),
            description: try row["description"].decode(String?.self),
            status: mediaStatus,
            hlsPath: try row["hls_path"].decode(String?.self),
            duration: try row["duration"].decode(Double?.self),
            progress: try row["progress"].decode(Double.self),
            error: try row["error"].decode(String?.self),
            sourceFileName: try row["source_file_name"].decode(String.self),
            sourcePath: try row["source_path"].decode(String.self),
            sourceSize: try row["source_size"].decode(Int64.self),
            probeJSON: try row["probe"].decode(String?.self),
            variantsJSON: try row["variants"].decode(String?.self),
            attempts: Int(try row["attempts"].decode(Int64.self)),
            createdAt: try row["created_at"].decode(String.self),
            updatedAt: try row["updated_at"].decode(String.self),
            leaseToken: try row["lease_token"].decode(Int64.self)
        )
        publishedAt = try row["published_at"].decode(String?.self)
        processingSeconds = try row["processing_seconds"].decode(Double?.self)
        rungProgressJSON = try row["rung_progress"].decode(String?.self)
        sourceSummaryJSON = try row["source_summary"].decode(String?.self)
        tracksJSON = try row["tracks"].decode(String?.self)
        let visibility = try row["visibility"].decode(String.self)
        guard let mediaVisibility = MediaVisibility(rawValue: visibility) else { throw UnknownStatus(value: visibility) }
        self.visibility = mediaVisibility
        let format = try row["segment_format"].decode(String.self)
        guard let segmentFormat = SegmentFormat(rawValue: format) else { throw UnknownStatus(value: format) }
        self.segmentFormat = segmentFormat
    }
}

extension Caption {
    /// A `captions` row.
    init(postgres row: PostgresRandomAccessRow) throws {
        self.init(id: try row["id"].decode(Int64.self), mediaID: try row["media_id"].decode(Int64.self),
                  language: try row["language"].decode(String.self), name: try row["name"].decode(String.self),
                  isDefault: try row["is_default"].decode(Bool.self), createdAt: try row["created_at"].decode(String.self))
    }
}

extension ChunkJob {
    /// A `chunks` row.
    init(postgres row: PostgresRandomAccessRow) throws {
        let status = try row["status"].decode(String.self)
        guard let chunkStatus = ChunkStatus(rawValue: status) else { throw UnknownStatus(value: status) }
        self.init(mediaID: try row["media_id"].decode(Int64.self), index: Int(try row["idx"].decode(Int64.self)),
                  outputPath: try row["output_path"].decode(String.self), specJSON: try row["spec"].decode(String.self),
                  status: chunkStatus, attempts: Int(try row["attempts"].decode(Int64.self)),
                  error: try row["error"].decode(String?.self), leaseToken: try row["lease_token"].decode(Int64.self),
                  worker: try row["lease_worker"].decode(String?.self))
    }
}

/// A row whose status is none the catalog knows.
struct UnknownStatus: Error, CustomStringConvertible {
    let value: String
    var description: String { "unknown status \(value)" }
}
