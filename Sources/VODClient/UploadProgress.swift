/// How far an upload has come.
public struct UploadProgress: Sendable, Equatable {
    /// The bytes of the file sent so far: acknowledged by the server for a resumable upload, handed to the
    /// connection for a form upload.
    public var bytesSent: Int64
    /// The size of the file.
    public var totalBytes: Int64

    /// From 0 to 1.
    public var fractionCompleted: Double {
        totalBytes == 0 ? 1 : Double(bytesSent) / Double(totalBytes)
    }
}
