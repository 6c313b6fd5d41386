import Foundation
import VODEngine

/// The closing table of a transcode: one line per rung, then duration, size and speed.
struct SummaryTable {
    let result: TranscodeResult
    let elapsed: TimeInterval

    var text: String {
        var lines = [result.outputDirectory + "/master.m3u8"]
        lines.append(row("rung", "size", "fps", "peak kb/s", "avg kb/s", "segments", "quality", "codecs"))
        for variant in result.variants {
            let isAudioOnly = variant.width == 0
            lines.append(row(
                variant.name, isAudioOnly ? "audio" : "\(variant.width)x\(variant.height)",
                isAudioOnly ? "-" : String(format: "%.3f", variant.frameRate),
                "\(variant.bandwidth / 1000)", "\(variant.averageBandwidth / 1000)", "\(variant.segmentCount)",
                isAudioOnly ? "-" : variant.crf.map { "crf \($0)" } ?? "fixed", variant.codecs
            ))
        }
        let megabytes = Double(result.totalBytes) / 1_000_000
        let speed = elapsed > 0 ? result.duration / elapsed : 0
        lines.append(String(format: "duration %.2f s · size %.1f MB · took %.2f s · speed %.2fx real time",
                            result.duration, megabytes, elapsed, speed))
        if let analysis = result.qualityAnalysis {
            let trials = analysis.trials.map { String(format: "SSIM %.4f at crf %g", $0.ssim, $0.crf) }
            let share = elapsed > 0 ? 100 * analysis.seconds / elapsed : 0
            lines.append("crf \(analysis.crf) chosen per title (\(trials.joined(separator: ", ")))"
                         + String(format: " in %.2f s, %.1f %% of the time", analysis.seconds, share))
        }
        for track in result.tracks where track.type == "audio" {
            guard let loudness = track.loudness else { continue }
            lines.append("audio track \(track.index) (\(track.rendition ?? track.codec)): "
                         + String(format: "%.1f LUFS integrated · range %.1f LU · true peak %.1f dBTP",
                                  loudness.integrated, loudness.range, loudness.truePeak))
        }
        return lines.joined(separator: "\n")
    }

    private func row(_ cells: String...) -> String {
        let widths = [8, 11, 8, 10, 10, 9, 9, 0]
        return zip(cells, widths).map { cell, width in
            width == 0 ? cell : cell.padding(toLength: max(width, cell.count), withPad: " ", startingAt: 0)
        }.joined(separator: " ")
    }
}
