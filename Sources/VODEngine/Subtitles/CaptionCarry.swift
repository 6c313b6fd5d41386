/// The closed captions of pictures a frame-rate conversion drops, kept for the next picture it emits: every
/// `cc_data` triplet that holds data goes out once, in order, at most 31 to a picture (the `cc_count` of an
/// A/53 SEI has five bits).
struct CaptionCarry {
    private var carried: [UInt8] = []

    /// The most triplets one picture's A/53 user data can hold.
    static let maximumTriplets = 31

    /// Keeps the triplets of `captions` that hold data (valid, and not CEA-608 padding).
    mutating func carry(_ captions: [UInt8]?) {
        guard let captions else { return }
        carried += Self.dataTriplets(of: captions)
    }

    /// The triplets of `captions` that hold data, in order: valid, and not CEA-608 padding.
    static func dataTriplets(of captions: [UInt8]) -> [UInt8] {
        stride(from: 0, to: captions.count - 2, by: 3).filter { holdsData(captions[$0..<$0 + 3]) }.flatMap { captions[$0..<$0 + 3] }
    }

    /// The carried triplets followed by `captions`, at most `maximumTriplets` of them, leaving the rest for the
    /// next picture; nil when there are none.
    mutating func take(with captions: [UInt8]?) -> [UInt8]? {
        guard !carried.isEmpty else { return captions }
        carry(captions)
        let count = min(carried.count, Self.maximumTriplets * 3)
        defer { carried.removeFirst(count) }
        return Array(carried.prefix(count))
    }

    private static func holdsData(_ triplet: ArraySlice<UInt8>) -> Bool {
        let header = triplet[triplet.startIndex]
        guard header & 0x04 != 0 else { return false }
        return header & 0x03 >= 2 || triplet.dropFirst().contains { $0 & 0x7F != 0 }
    }
}
