import Hummingbird
import _NIOFileSystem

/// Receives an upload's body into a staging file, chunk by chunk, never holding the body in memory and
/// refusing it as soon as it passes the size limit.
struct UploadReceiver {
    /// What a multipart body carried besides the file's bytes.
    struct Form {
        var fileName: String?
        var fields: [String: String] = [:]
        var fileSize: Int64 = 0
        var hasFile: Bool { fileName != nil }
    }

    let stagingPath: String
    let limit: Int64
    /// How many fields besides the file a form may have, and how long each may be; more gets 413.
    let formLimits: ConnectionLimits

    /// Writes a raw body (`Content-Type: video/*`) to the staging file and returns its size.
    /// A body shorter than its Content-Length (the client went away) is an error.
    func receiveRaw(_ body: RequestBody, expectedLength: Int64?) async throws -> Int64 {
        let size = try await write { writer in
            var size: Int64 = 0
            for try await chunk in body {
                size += Int64(chunk.readableBytes)
                guard size <= limit else { throw APIError.uploadTooLarge(limit: limit) }
                try await writer.write(contentsOf: chunk)
            }
            return size
        }
        if let expectedLength, size != expectedLength { throw IncompleteUpload() }
        return size
    }

    /// Parses a multipart body, writing the `file` field to the staging file and keeping the other fields.
    /// A body that ends before its closing boundary (the client went away) is an error.
    func receiveMultipart(_ body: RequestBody, boundary: String) async throws -> Form {
        try await write { writer in
            var parser = MultipartParser(boundary: boundary)
            var form = Form()
            var current: (name: String, isFile: Bool)?
            var field: [UInt8] = []
            var received: Int64 = 0
            var fields = 0
            for try await chunk in body {
                received += Int64(chunk.readableBytes)
                guard received <= limit else { throw APIError.uploadTooLarge(limit: limit) }
                for event in try parser.feed(chunk) {
                    switch event {
                    case .partStart(let name, let fileName):
                        let isFile = name == "file" && fileName != nil && !form.hasFile
                        if isFile { form.fileName = fileName } else { try countField(&fields) }
                        current = (name, isFile)
                        field = []
                    case .data(let data) where current?.isFile == true:
                        form.fileSize += Int64(data.readableBytes)
                        try await writer.write(contentsOf: data)
                    case .data(let data):
                        field += data.readableBytesView
                        guard field.count <= formLimits.formFieldBytes else {
                            throw APIError.http(.contentTooLarge, message:
                                "Form field \"\(current?.name ?? "")\" is longer than \(formLimits.formFieldBytes) bytes")
                        }
                    case .partEnd:
                        if let current, !current.isFile { form.fields[current.name] = String(decoding: field, as: UTF8.self) }
                        current = nil
                    }
                }
            }
            guard parser.isComplete else { throw IncompleteUpload() }
            return form
        }
    }

    /// Counts one more field besides the file; throws 413 past `formLimits.formFields`.
    private func countField(_ fields: inout Int) throws {
        fields += 1
        guard fields <= formLimits.formFields else {
            throw APIError.http(.contentTooLarge, message: "The form has more than \(formLimits.formFields) fields besides the file")
        }
    }

    private func write<Result: Sendable>(
        _ body: (inout BufferedWriter<WriteFileHandle>) async throws -> Result
    ) async throws -> Result {
        try await FileSystem.shared.withFileHandle(
            forWritingAt: FilePath(stagingPath),
            options: .newFile(replaceExisting: false)
        ) { handle in
            try await handle.withBufferedWriter { writer in try await body(&writer) }
        }
    }
}

/// The body ended early: the client disconnected or sent less than it announced.
struct IncompleteUpload: Error {}
