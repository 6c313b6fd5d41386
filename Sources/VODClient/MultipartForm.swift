import Foundation

/// A `multipart/form-data` body of text fields and one file, whose bytes go between `head` and `tail`.
struct MultipartForm {
    let boundary = "vod-\(UUID().uuidString)"
    /// The text fields, in order.
    var fields: [(name: String, value: String)]
    /// The form field of the file, and the file's name as the server records it.
    var fileField: String
    var fileName: String

    /// The `Content-Type` of the body.
    var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// The fields, then the head of the file's part.
    var head: [UInt8] {
        var text = ""
        for field in fields {
            text += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(field.name)\"\r\n\r\n\(field.value)\r\n"
        }
        let name = fileName.replacingOccurrences(of: "\"", with: "%22").filter { !$0.isNewline }
        text += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(fileField)\"; filename=\"\(name)\"\r\n"
        text += "Content-Type: application/octet-stream\r\n\r\n"
        return Array(text.utf8)
    }

    /// What follows the file's bytes: the end of the form.
    var tail: [UInt8] { Array("\r\n--\(boundary)--\r\n".utf8) }
}
