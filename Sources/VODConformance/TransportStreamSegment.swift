/// What a stretch of MPEG-TS holds: its program tables, its H.264 video and its AAC audio, with timestamps; an fMP4
/// segment is read into the same shape (`init(fragmented:initSegment:)`), its tracks as the program's streams.
///
/// Timestamps are 33-bit 90 kHz ticks as found in the PES headers, unwrapped within the stretch.
public struct TransportStreamSegment: Sendable {
    /// The MPEG-TS packet size.
    public static let packetSize = 188

    /// A program as described by the PAT and its PMT.
    public struct Program: Sendable, Equatable {
        /// The PID carrying the PMT.
        public let pmtPID: UInt16
        /// The elementary streams the PMT lists, in order.
        public let streams: [ElementaryStream]
    }

    /// One elementary stream of a PMT.
    public struct ElementaryStream: Sendable, Equatable {
        /// The PID of the stream's packets.
        public let pid: UInt16
        /// stream_type: 0x1B H.264, 0x0F AAC in ADTS, 0x24 HEVC, 0x03/0x04 MPEG audio.
        public let streamType: UInt8

        /// Whether the stream type is audio: AAC (0x0F, 0x11), MPEG audio (0x03, 0x04), AC-3 (0x81) or E-AC-3 (0x87).
        public var isAudio: Bool { [0x0F, 0x11, 0x03, 0x04, 0x81, 0x87].contains(streamType) }
    }

    /// Whole 188-byte packets read.
    public internal(set) var packetCount = 0
    /// The program found in the PAT/PMT, or the one passed in when the stretch has none.
    public internal(set) var program: Program?
    /// Whether the PAT and then the PMT come before any other packet but SI tables (PIDs up to 0x1F, such as an SDT).
    public internal(set) var startsWithProgramTables = false
    /// The first H.264 stream of the program.
    public internal(set) var video: VideoStream?
    /// The AAC ADTS streams of the program.
    public internal(set) var audio: [AudioStream] = []
    /// Structural problems found: lost sync, continuity counter jumps, truncated or unparsable PES packets.
    public internal(set) var problems: [String] = []
    /// For an fMP4 segment, read into this shape with its init segment: its boxes and decode times; nil for MPEG-TS.
    public internal(set) var fragments: Fragments?

    /// What an fMP4 media segment holds besides its samples.
    public struct Fragments: Sendable {
        /// The segment's bytes.
        public internal(set) var byteCount = 0
        /// Whether it starts with an `styp` box.
        public internal(set) var startsWithSegmentType = false
        /// The `mfhd` sequence number of each `moof`, in order.
        public internal(set) var sequenceNumbers: [UInt32] = []
        /// Per track id, the `tfdt` of its first fragment and the decode time just after its last sample, in the
        /// track's time scale.
        public internal(set) var decodeTimes: [UInt32: (start: UInt64, end: UInt64)] = [:]
    }
}

/// An H.264 elementary stream of a segment.
public struct VideoStream: Sendable {
    /// The stream's PID.
    public let pid: UInt16
    /// Access units (one per PES packet) in decoding order.
    public internal(set) var accessUnits: [VideoAccessUnit] = []
    /// The first SPS found, when it parses.
    public internal(set) var sps: SequenceParameterSet?
    /// Whether an SPS and a PPS came before the first coded slice.
    public internal(set) var parameterSetsBeforeFirstSlice = false

    /// Whether the first access unit's first slice is an IDR slice (NAL type 5).
    public var startsWithIDR: Bool { accessUnits.first?.firstSliceType == 5 }

    /// The PTS of every access unit whose first slice is an IDR slice.
    public var idrPTS: [Int64] { accessUnits.filter(\.isIDR).map(\.pts) }

    /// The earliest presentation timestamp.
    public var firstPTS: Int64? { accessUnits.map(\.pts).min() }

    /// The latest presentation timestamp (the start of the last frame shown).
    public var lastPTS: Int64? { accessUnits.map(\.pts).max() }

    /// Whether any access unit carries A/53 closed captions.
    public var carriesCaptions: Bool { accessUnits.contains(where: \.carriesCaptions) }

    /// The typical distance between presented frames in ticks, the median PTS step; nil with fewer than two frames.
    public var frameDurationTicks: Int64? {
        let sorted = accessUnits.map(\.pts).sorted()
        let steps = zip(sorted.dropFirst(), sorted).map { $0 - $1 }.filter { $0 > 0 }.sorted()
        return steps.isEmpty ? nil : steps[steps.count / 2]
    }
}

/// One H.264 access unit, carried in one PES packet.
public struct VideoAccessUnit: Sendable, Equatable {
    /// Presentation timestamp in 90 kHz ticks.
    public let pts: Int64
    /// Decoding timestamp in 90 kHz ticks (the PTS when the PES has no DTS).
    public let dts: Int64
    /// The NAL unit types up to and including the first slice.
    public let nalTypes: [UInt8]
    /// Byte offset, within the analysed stretch, of the TS packet where the PES starts.
    public let byteOffset: Int
    /// Whether an SEI before the first slice carries closed captions as ATSC A/53 user data (`GA94` `cc_data`).
    public var carriesCaptions = false

    /// The NAL type of the first coded slice: 5 for IDR, 1 for other pictures.
    public var firstSliceType: UInt8? { nalTypes.last.flatMap { (1...5).contains($0) ? $0 : nil } }

    /// Whether the access unit is an IDR picture.
    public var isIDR: Bool { firstSliceType == 5 }
}

/// An audio elementary stream of a segment: AAC in ADTS, AC-3 or E-AC-3.
public struct AudioStream: Sendable {
    /// The stream's PID.
    public let pid: UInt16
    /// The PMT stream_type.
    public let streamType: UInt8
    /// The first ADTS header, when the stream carries ADTS.
    public internal(set) var header: ADTSHeader?
    /// The first AC-3 or E-AC-3 sync frame header, when the stream is AC-3 (0x81) or E-AC-3 (0x87).
    public internal(set) var syncFrame: DolbySyncFrame?
    /// The PTS of the first audio frame.
    public internal(set) var firstPTS: Int64?
    /// The PTS just after the last audio frame ends.
    public internal(set) var endPTS: Int64?
    /// Audio frames read: AAC frames of 1024 samples, or AC-3 sync frames.
    public internal(set) var frameCount = 0

    /// One AAC frame's duration in ticks, from the first header.
    public var frameDurationTicks: Double? { header.map { 1024 * 90_000 / Double($0.sampleRate) } ?? syncFrame?.durationTicks }

    /// The RFC 6381 codec string: `mp4a.40.N` from the ADTS header, `ac-3` or `ec-3` from the sync frame.
    public var codec: String? { header.map { "mp4a.40.\($0.objectType)" } ?? syncFrame?.codec }

    /// The channel count: ADTS channel_configuration 1–6 (7 is 7.1, eight channels), or from the AC-3 sync frame.
    public var channels: Int? {
        if let header { return (1...7).contains(header.channels) ? (header.channels == 7 ? 8 : header.channels) : nil }
        return syncFrame?.channels
    }
}
