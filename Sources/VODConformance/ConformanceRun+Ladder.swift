import Foundation

extension ConformanceRun {
    /// The rules about one title's rungs: audio, timing, video format and picture of each, and their agreement.
    mutating func checkLadder(_ rungs: [RungAnalysis]) {
        let titleHasAudio = rungs.contains(where: \.hasAudio)
        for rung in rungs {
            if titleHasAudio { rung.segments.forEach { checkAudio($0) } }
            checkTiming(rung)
            checkVideoFormat(rung)
            checkPicture(rung)
        }
        guard let reference = rungs.first else { return }
        for rung in rungs.dropFirst() {
            compare(rung, with: reference)
        }
    }

    private mutating func checkTiming(_ rung: RungAnalysis) {
        guard let frame = rung.frameTicks, let last = rung.segments.indices.last else { return }
        let audioFrame = rung.segments.lazy.compactMap { $0.stream.audio.first?.frameDurationTicks }.first ?? frame
        for index in rung.segments.indices.dropFirst() {
            let segment = rung.segments[index]
            if let end = rung.videoEnd(index - 1), let start = segment.videoStart {
                checkContinuity(Double(start) - end, tolerance: frame, stream: "video", segment.file)
            }
            if let end = rung.segments[index - 1].audioEnd, let start = segment.audioStart {
                checkContinuity(Double(start - end), tolerance: audioFrame, stream: "audio", segment.file)
            }
        }
        guard let start = rung.videoStart, let videoEnd = rung.videoEnd(last) else { return }
        let real = (videoEnd - Double(start)) / Timestamp.ticksPerSecond
        let listed = rung.playlist.totalDuration
        if abs(listed - real) * Timestamp.ticksPerSecond > frame + 1 {
            flag(.mediaDuration, rung.file, "EXTINF adds up to \(seconds(listed)) but the video lasts \(seconds(real))")
        }
        if let audioEnd = rung.segments[last].audioEnd, abs(Double(audioEnd) - videoEnd) > max(frame, audioFrame) + 1 {
            let gap = (Double(audioEnd) - videoEnd) / Timestamp.ticksPerSecond
            flag(.mediaAudioVideoEnd, rung.file, "audio ends \(seconds(gap)) after the video (negative: before)")
        }
        let limit = options.keyframeInterval * Timestamp.ticksPerSecond + frame + 1
        let marks = rung.idrs.map(Double.init) + [videoEnd]
        for (from, to) in zip(marks, marks.dropFirst()) where to - from > limit {
            flag(.segmentIDRInterval, rung.file, "no IDR for \(seconds((to - from) / Timestamp.ticksPerSecond)) after PTS \(seconds(from / Timestamp.ticksPerSecond)), more than \(options.keyframeInterval) s")
        }
    }

    mutating func checkContinuity(_ gap: Double, tolerance: Double, stream: String, _ file: String) {
        guard abs(gap) > tolerance + 1 else { return }
        let kind = gap < 0 ? "overlaps the previous segment by" : "starts after a gap of"
        flag(.segmentTimestamps, file, "\(stream) \(kind) \(seconds(abs(gap) / Timestamp.ticksPerSecond))")
    }

    private mutating func checkVideoFormat(_ rung: RungAnalysis) {
        guard let sps = rung.sps else { return }
        let depths: Set = sps.coding == .hevc && sps.profileIDC == 2 ? [8, 10] : [8]
        switch sps.coding {
        case .h264 where sps.profileIDC != 100:
            flag(.videoProfile, rung.file, "profile_idc \(sps.profileIDC) is not High (100)")
        case .hevc where ![1, 2].contains(sps.profileIDC):
            flag(.videoProfile, rung.file, "general_profile_idc \(sps.profileIDC) is not Main (1) or Main 10 (2)")
        default:
            break
        }
        if sps.chromaFormatIDC != 1 || !depths.contains(sps.bitDepthLuma) || sps.bitDepthChroma != sps.bitDepthLuma || !sps.frameMBsOnly {
            flag(.videoFormat, rung.file, "chroma_format_idc \(sps.chromaFormatIDC), bit depth \(sps.bitDepthLuma)/\(sps.bitDepthChroma), frame_mbs_only \(sps.frameMBsOnly): not \(depths.sorted().map(String.init).joined(separator: " or "))-bit 4:2:0 progressive")
        }
        guard let rate = rung.frameRate else { return }
        if !sps.levelAllows(frameRate: rate) {
            flag(.videoLevel, rung.file, "level_idc \(sps.levelIDC) does not allow \(sps.width)x\(sps.height) at \(seconds(rate)) fps")
        }
        if rate > options.maximumFrameRate + 0.01 {
            flag(.videoFrameRate, rung.file, "\(seconds(rate)) fps is above \(options.maximumFrameRate)")
        }
    }

    private mutating func compare(_ rung: RungAnalysis, with reference: RungAnalysis) {
        let frame = reference.frameTicks ?? rung.frameTicks ?? 0
        let names = "\(rung.file) and \(reference.file)"
        if rung.playlist.targetDuration != reference.playlist.targetDuration {
            flag(.ladderTargetDuration, rung.file, "TARGETDURATION differs between \(names)")
        }
        if rung.playlist.segments.count != reference.playlist.segments.count {
            flag(.ladderSegmentCount, rung.file, "\(rung.playlist.segments.count) segments, \(reference.file) has \(reference.playlist.segments.count)")
        } else if rung.segments.count == reference.segments.count {
            let misaligned = rung.segments.indices.filter { index in
                let starts = [rung.segments[index].videoStart, reference.segments[index].videoStart].compactMap { $0.map(Double.init) }
                let ends = [rung.videoEnd(index), reference.videoEnd(index)].compactMap { $0 }
                return [starts, ends].contains { $0.count == 2 && abs($0[0] - $0[1]) > frame + 1 }
            }
            if let first = misaligned.first {
                flag(.ladderSegmentAlignment, rung.file, "\(misaligned.count) segments, the first being segment \(first), cover other times than in \(reference.file)")
            }
        }
        let idrs = rung.idrs
        let expected = reference.idrs
        let differing = zip(idrs, expected).first { abs(Double($0 - $1)) > frame / 2 }
        if idrs.count != expected.count || differing != nil {
            let detail = differing.map { ", first at PTS \(seconds(Timestamp.seconds($0.0))) against \(seconds(Timestamp.seconds($0.1)))" } ?? ""
            flag(.ladderIDRAlignment, rung.file, "\(idrs.count) IDR pictures against \(expected.count) in \(reference.file)\(detail)")
        }
    }

    /// A number of seconds (or any measure) with three decimals.
    func seconds(_ value: Double) -> String {
        String(format: "%.3f", value)
    }

    /// A number rounded to an integer, such as a bit rate.
    func whole(_ value: Double) -> String {
        String(format: "%.0f", value)
    }
}
