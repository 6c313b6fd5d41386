import ArgumentParser
import Foundation
import VODConformance

/// `vod validate DIR_OR_MASTER`: checks a title's HLS output against the project's HLS authoring rules.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check HLS output against the project's HLS authoring rules.",
        discussion: "Prints every violation and exits with status 1 when there is any."
    )

    @Argument(help: "A title folder holding one master playlist, or a master or media playlist.")
    var path: String

    @Flag(help: "Print the violations and the measurements as JSON.")
    var json = false

    @Option(help: "The longest allowed distance between IDR pictures, in seconds.")
    var keyframeInterval: Double = 2

    @Option(help: "The largest allowed TARGETDURATION, in seconds.")
    var targetDuration: Int = 6

    func run() throws {
        let url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ValidationError("\(path) does not exist")
        }
        let master = isDirectory.boolValue ? try HLSConformance.findMaster(in: url) : url
        let options = ConformanceOptions(keyframeInterval: keyframeInterval, targetDuration: targetDuration)
        let report = HLSConformance.check(masterURL: master, options: options)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else if report.isConformant {
            let rungs = report.measurements.rungs.count
            let audio = report.measurements.audioRenditions.count
            let parts = [rungs == 0 ? "audio only" : "\(rungs) rungs", audio == 0 ? nil : "\(audio) audio renditions"]
            print("\(master.path): conforms (\(parts.compactMap { $0 }.joined(separator: ", ")))")
        } else {
            report.violations.forEach { print($0) }
            print("\(report.violations.count) violations of \(report.brokenRules.count) rules")
        }
        if !report.isConformant { throw ExitCode.failure }
    }
}
