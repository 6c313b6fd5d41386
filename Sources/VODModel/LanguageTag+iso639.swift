import Foundation

/// Turns a container's ISO 639-2 language code into the RFC 5646 tag HLS wants, and names the language in
/// its own words.
extension LanguageTag {
    /// `fre`, `fra` and `fr` → `fr`; `eng` → `en`; a code with no two-letter form stays as it is; `und`, empty
    /// and malformed codes give nil.
    package static func rfc5646(_ code: String?) -> String? {
        guard let code = code?.lowercased(), (2...3).contains(code.count), code.allSatisfy({ $0.isASCII && $0.isLetter }),
            code != "und", code != "mis", code != "zxx", code != "mul"
        else { return nil }
        let terminologic = bibliographic[code] ?? code
        return Locale.LanguageCode(terminologic).identifier(.alpha2) ?? terminologic
    }

    /// The language's name in that language, capitalised as a menu item: `fr` → "Français".
    package static func nativeName(_ tag: String) -> String? {
        guard let name = Locale(identifier: tag).localizedString(forLanguageCode: tag), !name.isEmpty else { return nil }
        return name.prefix(1).uppercased() + name.dropFirst()
    }

    /// ISO 639-2/B codes whose 639-2/T twin Foundation knows.
    private static let bibliographic = [
        "alb": "sqi", "arm": "hye", "baq": "eus", "bur": "mya", "chi": "zho", "cze": "ces", "dut": "nld",
        "fre": "fra", "geo": "kat", "ger": "deu", "gre": "ell", "ice": "isl", "mac": "mkd", "mao": "mri",
        "may": "msa", "per": "fas", "rum": "ron", "slo": "slk", "tib": "bod", "wel": "cym",
    ]
}
