import Foundation

extension ConformanceRun {
    /// Checks the I-frame streams of a master playlist, their playlists and their byte ranges.
    mutating func checkIFrameStreams(_ master: MasterPlaylist, _ url: URL, variants: [RungAnalysis]) {
        let file = relative(url)
        for stream in master.iFrameStreams {
            checkIFrameStream(stream, url)
        }
        for rung in variants {
            guard let sps = rung.sps else { continue }
            let resolution = Resolution(width: sps.width, height: sps.height)
            if !master.iFrameStreams.contains(where: { $0.resolution == resolution }) {
                flag(.iFrameMissing, file, "no #EXT-X-I-FRAME-STREAM-INF of RESOLUTION \(resolution) for \(rung.file)")
            }
        }
    }

    private mutating func checkIFrameStream(_ stream: VariantStream, _ masterURL: URL) {
        let file = relative(masterURL)
        let name = "I-frame stream (line \(stream.line))"
        let missing = ["URI", "BANDWIDTH", "CODECS", "RESOLUTION"].filter { stream.attributes[$0] == nil }
        let forbidden = ["FRAME-RATE", "AUDIO"].filter { stream.attributes[$0] != nil }
        if !missing.isEmpty || !forbidden.isEmpty {
            let parts = (missing.isEmpty ? [] : ["lacks " + missing.joined(separator: ", ")])
                + (forbidden.isEmpty ? [] : ["has " + forbidden.joined(separator: ", ")])
            flag(.iFrameAttributes, file, "\(name) " + parts.joined(separator: " and "))
        }
        guard let url = resolve(stream.uri, from: masterURL), let playlist = loadMediaPlaylist(url, from: masterURL) else { return }
        let listFile = relative(url)
        checkMediaPlaylist(playlist, listFile)
        if !playlist.iFramesOnly {
            flag(.iFramePlaylist, listFile, "#EXT-X-I-FRAMES-ONLY is missing")
        }
        var measurement = IFrameMeasurement(playlist: listFile)
        var sizes: [(bytes: Int, duration: Double)] = []
        var sps: SequenceParameterSet?
        var programs: [URL: TransportStreamSegment.Program] = [:]
        let initSegment = playlist.mapURI.flatMap { loadInitSegment($0, of: url) }
        for entry in playlist.segments {
            guard let range = entry.byteRange else {
                flag(.iFramePlaylist, listFile, "line \(entry.line): the entry has no #EXT-X-BYTERANGE")
                continue
            }
            guard let segmentURL = resolve(entry.uri, from: url) else { continue }
            sizes.append((range.length, entry.duration))
            let size = TransportStreamSegment.packetSize
            guard initSegment != nil || (range.offset % size == 0 && range.length % size == 0) else {
                flag(.iFrameRange, listFile, "line \(entry.line): byte range \(range.length)@\(range.offset) is not whole \(size)-byte packets")
                measurement.idrTimes.append(nil)
                continue
            }
            if initSegment == nil, programs[segmentURL] == nil { programs[segmentURL] = program(of: segmentURL) }
            guard let bytes = read(segmentURL, range: range, from: url) else { continue }
            let segment = initSegment.map { TransportStreamSegment(fragmented: bytes, initSegment: $0) }
                ?? TransportStreamSegment(bytes: bytes, knownProgram: programs[segmentURL])
            if segment.fragments != nil, bytes.count < 8 || String(decoding: bytes[4 ..< 8], as: UTF8.self) != "moof" {
                flag(.iFrameRange, listFile, "line \(entry.line): byte range \(range.length)@\(range.offset) does not start at a moof")
            }
            let pictures = segment.video?.accessUnits ?? []
            if pictures.count != 1 || pictures.first?.isIDR != true {
                let idrs = pictures.filter(\.isIDR).count
                flag(.iFrameRange, listFile, "line \(entry.line): byte range holds \(pictures.count) pictures of which \(idrs) IDR, not exactly one IDR picture")
            } else if !segment.problems.isEmpty {
                flag(.iFrameRange, listFile, "line \(entry.line): " + segment.problems.joined(separator: "; "))
            }
            sps = sps ?? segment.video?.sps
            measurement.idrTimes.append(pictures.first(where: \.isIDR).map { Timestamp.seconds($0.pts) })
        }
        measurement.peakBandwidth = Bandwidth.peak(segments: sizes, targetDuration: playlist.targetDuration ?? 0)
        measurements.iFrameRungs.append(measurement)
        if let bandwidth = stream.bandwidth, Double(bandwidth) < measurement.peakBandwidth {
            flag(.masterBandwidth, file, "\(name): BANDWIDTH \(bandwidth) is below the measured peak \(whole(measurement.peakBandwidth))")
        }
        checkDescription(stream, codecs: sps.map { [$0.codecString] } ?? [], sps: sps, name, file)
    }

    /// The program described by the PAT/PMT at the start of a TS file.
    private func program(of url: URL) -> TransportStreamSegment.Program? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 64 * TransportStreamSegment.packetSize)) ?? Data()
        return TransportStreamSegment(bytes: [UInt8](head.prefix(head.count - head.count % TransportStreamSegment.packetSize))).program
    }
}
