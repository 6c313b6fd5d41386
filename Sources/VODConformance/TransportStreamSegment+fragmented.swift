extension TransportStreamSegment {
    /// Reads an fMP4 media segment (or a byte range of one, such as an I-frame's `moof` and first sample) with
    /// the init segment it follows: each track becomes a stream of the program, its samples access units or
    /// audio frames with 90 kHz timestamps from `tfdt` and the `trun` durations and composition offsets.
    init(fragmented bytes: [UInt8], initSegment: FragmentedInit) {
        var fragments = Fragments(byteCount: bytes.count)
        let top = MP4Box.boxes(in: bytes, from: 0, to: bytes.count, problems: &problems)
        fragments.startsWithSegmentType = top.first?.type == "styp"
        program = Program(pmtPID: 0, streams: initSegment.tracks.map { ElementaryStream(pid: UInt16(truncatingIfNeeded: $0.id),
                                                                                          streamType: Self.streamType($0.sampleEntry)) })
        startsWithProgramTables = true
        if let video = initSegment.tracks.first(where: { $0.handler == "vide" }) {
            var stream = VideoStream(pid: UInt16(truncatingIfNeeded: video.id))
            stream.sps = video.parsedSPS
            stream.parameterSetsBeforeFirstSlice = video.sps != nil && video.hasPPS
            self.video = stream
        }
        audio = initSegment.tracks.filter { $0.handler == "soun" }.map { track in
            var stream = AudioStream(pid: UInt16(truncatingIfNeeded: track.id), streamType: Self.streamType(track.sampleEntry))
            stream.header = track.audio
            return stream
        }
        for moof in top where moof.type == "moof" {
            let children = moof.children(bytes, problems: &problems)
            if let mfhd = children[type: "mfhd"] { fragments.sequenceNumbers.append(MP4Box.uint32(bytes, mfhd.body + 4)) }
            if top.first(where: { $0.start > moof.start })?.type != "mdat" {
                problems.append("the moof at byte \(moof.start) is not followed by an mdat")
            }
            for traf in children where traf.type == "traf" {
                read(traf: traf, moof: moof, bytes, initSegment, &fragments)
            }
        }
        packetCount = top.filter { $0.type == "moof" }.count
        self.fragments = fragments
    }

    /// The MPEG-TS stream type that stands for a sample entry, so that the TS rules read fMP4 tracks alike.
    private static func streamType(_ sampleEntry: String) -> UInt8 {
        ["avc1": 0x1B, "avc3": 0x1B, "hvc1": 0x24, "hev1": 0x24, "mp4a": 0x0F, "ac-3": 0x81, "ec-3": 0x87][sampleEntry] ?? 0
    }

    /// Adds the samples of one track fragment to its stream.
    private mutating func read(traf: MP4Box, moof: MP4Box, _ bytes: [UInt8], _ initSegment: FragmentedInit,
                               _ fragments: inout Fragments) {
        let boxes = traf.children(bytes, problems: &problems)
        guard let tfhd = boxes[type: "tfhd"], let track = initSegment.track(MP4Box.uint32(bytes, tfhd.body + 4)),
              track.timescale > 0 else {
            problems.append("a traf at byte \(traf.start) names no track of the init segment")
            return
        }
        let defaults = TrackFragmentDefaults(tfhd: tfhd, bytes)
        guard let tfdt = boxes[type: "tfdt"] else {
            problems.append("the traf of track \(track.id) at byte \(traf.start) has no tfdt")
            return
        }
        var decodeTime = bytes[tfdt.body] == 1 ? MP4Box.uint64(bytes, tfdt.body + 4) : UInt64(MP4Box.uint32(bytes, tfdt.body + 4))
        let start = fragments.decodeTimes[track.id]?.start ?? decodeTime
        for trun in boxes where trun.type == "trun" {
            for sample in TrackRun(trun: trun, bytes, defaults: defaults, base: defaults.base ?? moof.start) {
                let dts = Int64(decodeTime) * 90_000 / Int64(track.timescale)
                let pts = (Int64(decodeTime) + sample.compositionOffset) * 90_000 / Int64(track.timescale)
                decodeTime += UInt64(sample.duration)
                guard sample.offset >= 0, sample.offset + sample.size <= bytes.count else { continue }
                let data = bytes[sample.offset ..< sample.offset + sample.size]
                if track.handler == "vide" {
                    let units = NALUnit.split(lengthPrefixed: data, lengthSize: track.nalLengthSize, hevc: track.isHEVC)
                    var access = VideoAccessUnit(pts: pts, dts: dts, nalTypes: units.map(\.type), byteOffset: sample.offset)
                    access.carriesCaptions = units.contains(where: \.carriesA53Captions)
                    video?.accessUnits.append(access)
                } else if let index = audio.firstIndex(where: { $0.pid == UInt16(truncatingIfNeeded: track.id) }) {
                    if audio[index].firstPTS == nil { audio[index].firstPTS = pts }
                    audio[index].endPTS = Int64(decodeTime) * 90_000 / Int64(track.timescale)
                    audio[index].frameCount += 1
                    if audio[index].syncFrame == nil, [0x81, 0x87].contains(audio[index].streamType) {
                        audio[index].syncFrame = try? DolbySyncFrame(data)
                    }
                }
            }
        }
        fragments.decodeTimes[track.id] = (start, decodeTime)
    }
}
