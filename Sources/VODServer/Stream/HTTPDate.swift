import Foundation
import Synchronization

/// The IMF-fixdate of HTTP headers (RFC 9110 §5.6.7), such as `Tue, 21 Oct 2025 14:11:29 GMT`.
enum HTTPDate {
    static func string(from date: Date) -> String {
        formatter().string(from: date)
    }

    /// Now, as the `Date` header says it: formatted once a second.
    static func now() -> String {
        let date = Date()
        let second = Int(date.timeIntervalSince1970)
        if let text = current.withLock({ $0.second == second ? $0.text : nil }) { return text }
        let text = string(from: date)
        current.withLock { $0 = (second, text) }
        return text
    }

    private static let current = Mutex<(second: Int, text: String)>((-1, ""))

    static func date(from string: String) -> Date? {
        formatter().date(from: string)
    }

    private static func formatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }
}
