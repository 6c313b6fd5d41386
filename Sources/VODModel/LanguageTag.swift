/// RFC 5646 language tags, as `LANGUAGE` of `#EXT-X-MEDIA` carries them: the one place that validates them
/// (the caption API and the HLS checker) and turns a container's code into one (the engine).
public enum LanguageTag {
    /// Why `tag` is not the tag the rules ask for: not well formed (RFC 5646 §2.1), or a three-letter ISO 639-2
    /// code where a two-letter one exists (RFC 5646 §2.2.1: `eng` must be `en`). Nil when the tag is fine.
    public static func problem(_ tag: String) -> String? {
        let subtags = tag.split(separator: "-", omittingEmptySubsequences: false).map { String($0) }
        guard tag.allSatisfy(\.isASCII), let language = subtags.first, isWellFormed(subtags) else {
            return "\"\(tag)\" is not a well-formed RFC 5646 language tag"
        }
        if let short = twoLetter[language.lowercased()] {
            return "\"\(tag)\" uses the three-letter code \"\(language)\" where the two-letter \"\(short)\" exists"
        }
        return nil
    }

    /// language (2–3 letters, up to three extlangs; or 4–8 letters), script, region, variants, extensions, private use.
    private static func isWellFormed(_ subtags: [String]) -> Bool {
        if subtags.first?.lowercased() == "x" { return isPrivateUse(subtags.dropFirst()) }
        var rest = subtags[...]
        guard let language = rest.popFirst(), isAlpha(language, 2...8) else { return false }
        var extlangs = 0
        while language.count <= 3, let next = rest.first, isAlpha(next, 3...3), extlangs < 3 {
            rest.removeFirst()
            extlangs += 1
        }
        if let next = rest.first, isAlpha(next, 4...4) { rest.removeFirst() }
        if let next = rest.first, isAlpha(next, 2...2) || (next.count == 3 && next.allSatisfy(\.isNumber)) { rest.removeFirst() }
        while let next = rest.first, isVariant(next) { rest.removeFirst() }
        while let next = rest.first, next.count == 1, next.lowercased() != "x", next.first?.isLetter == true || next.first?.isNumber == true {
            rest.removeFirst()
            var count = 0
            while let part = rest.first, isAlphanumeric(part, 2...8) {
                rest.removeFirst()
                count += 1
            }
            if count == 0 { return false }
        }
        if rest.first?.lowercased() == "x" { return isPrivateUse(rest.dropFirst()) }
        return rest.isEmpty
    }

    private static func isPrivateUse(_ subtags: ArraySlice<String>) -> Bool {
        !subtags.isEmpty && subtags.allSatisfy { isAlphanumeric($0, 1...8) }
    }

    private static func isVariant(_ subtag: String) -> Bool {
        isAlphanumeric(subtag, 5...8) || (subtag.count == 4 && subtag.first?.isNumber == true && isAlphanumeric(subtag, 4...4))
    }

    private static func isAlpha(_ subtag: String, _ lengths: ClosedRange<Int>) -> Bool {
        lengths.contains(subtag.count) && subtag.allSatisfy { $0.isASCII && $0.isLetter }
    }

    private static func isAlphanumeric(_ subtag: String, _ lengths: ClosedRange<Int>) -> Bool {
        lengths.contains(subtag.count) && subtag.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }

    /// ISO 639-2 codes (terminological and bibliographic) that have an ISO 639-1 two-letter code, from Debian's iso-codes.
    private static let twoLetter: [String: String] = [
        "aar": "aa", "abk": "ab", "afr": "af", "aka": "ak", "alb": "sq", "amh": "am", "ara": "ar", "arg": "an", "arm": "hy",
        "asm": "as", "ava": "av", "ave": "ae", "aym": "ay", "aze": "az", "bak": "ba", "bam": "bm", "baq": "eu", "bel": "be",
        "ben": "bn", "bih": "bh", "bis": "bi", "bod": "bo", "bos": "bs", "bre": "br", "bul": "bg", "bur": "my", "cat": "ca",
        "ces": "cs", "cha": "ch", "che": "ce", "chi": "zh", "chu": "cu", "chv": "cv", "cor": "kw", "cos": "co", "cre": "cr",
        "cym": "cy", "cze": "cs", "dan": "da", "deu": "de", "div": "dv", "dut": "nl", "dzo": "dz", "ell": "el", "eng": "en",
        "epo": "eo", "est": "et", "eus": "eu", "ewe": "ee", "fao": "fo", "fas": "fa", "fij": "fj", "fin": "fi", "fra": "fr",
        "fre": "fr", "fry": "fy", "ful": "ff", "geo": "ka", "ger": "de", "gla": "gd", "gle": "ga", "glg": "gl", "glv": "gv",
        "gre": "el", "grn": "gn", "guj": "gu", "hat": "ht", "hau": "ha", "heb": "he", "her": "hz", "hin": "hi", "hmo": "ho",
        "hrv": "hr", "hun": "hu", "hye": "hy", "ibo": "ig", "ice": "is", "ido": "io", "iii": "ii", "iku": "iu", "ile": "ie",
        "ina": "ia", "ind": "id", "ipk": "ik", "isl": "is", "ita": "it", "jav": "jv", "jpn": "ja", "kal": "kl", "kan": "kn",
        "kas": "ks", "kat": "ka", "kau": "kr", "kaz": "kk", "khm": "km", "kik": "ki", "kin": "rw", "kir": "ky", "kom": "kv",
        "kon": "kg", "kor": "ko", "kua": "kj", "kur": "ku", "lao": "lo", "lat": "la", "lav": "lv", "lim": "li", "lin": "ln",
        "lit": "lt", "ltz": "lb", "lub": "lu", "lug": "lg", "mac": "mk", "mah": "mh", "mal": "ml", "mao": "mi", "mar": "mr",
        "may": "ms", "mkd": "mk", "mlg": "mg", "mlt": "mt", "mon": "mn", "mri": "mi", "msa": "ms", "mya": "my", "nau": "na",
        "nav": "nv", "nbl": "nr", "nde": "nd", "ndo": "ng", "nep": "ne", "nld": "nl", "nno": "nn", "nob": "nb", "nor": "no",
        "nya": "ny", "oci": "oc", "oji": "oj", "ori": "or", "orm": "om", "oss": "os", "pan": "pa", "per": "fa", "pli": "pi",
        "pol": "pl", "por": "pt", "pus": "ps", "que": "qu", "roh": "rm", "ron": "ro", "rum": "ro", "run": "rn", "rus": "ru",
        "sag": "sg", "san": "sa", "sin": "si", "slk": "sk", "slo": "sk", "slv": "sl", "sme": "se", "smo": "sm", "sna": "sn",
        "snd": "sd", "som": "so", "sot": "st", "spa": "es", "sqi": "sq", "srd": "sc", "srp": "sr", "ssw": "ss", "sun": "su",
        "swa": "sw", "swe": "sv", "tah": "ty", "tam": "ta", "tat": "tt", "tel": "te", "tgk": "tg", "tgl": "tl", "tha": "th",
        "tib": "bo", "tir": "ti", "ton": "to", "tsn": "tn", "tso": "ts", "tuk": "tk", "tur": "tr", "twi": "tw", "uig": "ug",
        "ukr": "uk", "urd": "ur", "uzb": "uz", "ven": "ve", "vie": "vi", "vol": "vo", "wel": "cy", "wln": "wa", "wol": "wo",
        "xho": "xh", "yid": "yi", "yor": "yo", "zha": "za", "zho": "zh", "zul": "zu"
    ]
}
