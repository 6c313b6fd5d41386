/// The storage of media items and of the transcode queue: every role of the catalog together.
///
/// `SQLiteCatalog` is the embedded implementation and `PostgresCatalog` (module `VODPostgres`) the one for
/// several machines. Code that opens a catalog holds the whole of it; each controller, service and worker
/// names only the roles it uses (`MediaStore`, `CaptionStore`, `JobQueue`, `ChunkQueue`, `EventLog`,
/// `WebhookOutbox`, `WorkerRegistry`, `SignatureLedger`, `TitleKeyStore`).
public typealias MediaCatalog = MediaStore & CaptionStore & JobQueue & ChunkQueue & EventLog & WebhookOutbox & WorkerRegistry & SignatureLedger & TitleKeyStore
