import CFFmpeg
import Foundation
import VODTestSupport

/// MP4 files with a Dolby Vision configuration record (`dvcC`), as iPhones and streaming masters write them:
/// the streams of an HEVC clip copied as they are, with the record added to the video.
enum DolbyVisionFixture {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Writes `output` from `input`, declaring Dolby Vision `profile` with base-layer `compatibility`
    /// (4: HLG, as iPhones record profile 8.4; 0: none, as profile 5 has).
    static func make(from input: String, to output: String, profile: UInt8, compatibility: UInt8) throws {
        var source: UnsafeMutablePointer<AVFormatContext>?
        try check(avformat_open_input(&source, input, nil, nil), "open \(input)")
        defer { avformat_close_input(&source) }
        try check(avformat_find_stream_info(source, nil), "read \(input)")
        var target: UnsafeMutablePointer<AVFormatContext>?
        try check(avformat_alloc_output_context2(&target, nil, "mp4", output), "create \(output)")
        guard let source, let target else { throw Failure(description: "no format context") }
        defer { avformat_free_context(target) }
        // The mp4 muxer writes `dvcC` only when told that unofficial boxes are welcome.
        target.pointee.strict_std_compliance = -1
        for index in 0..<Int(source.pointee.nb_streams) {
            let stream = source.pointee.streams[index]!
            let copy = avformat_new_stream(target, nil)!
            try check(avcodec_parameters_copy(copy.pointee.codecpar, stream.pointee.codecpar), "copy parameters")
            copy.pointee.codecpar.pointee.codec_tag = 0
            copy.pointee.time_base = stream.pointee.time_base
            guard stream.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO else { continue }
            let size = MemoryLayout<AVDOVIDecoderConfigurationRecord>.size
            let data = av_stream_new_side_data(copy, AV_PKT_DATA_DOVI_CONF, size)!
            data.withMemoryRebound(to: AVDOVIDecoderConfigurationRecord.self, capacity: 1) { record in
                record.pointee.dv_version_major = 1
                record.pointee.dv_profile = profile
                record.pointee.dv_level = 4
                record.pointee.rpu_present_flag = 1
                record.pointee.bl_present_flag = 1
                record.pointee.dv_bl_signal_compatibility_id = compatibility
            }
        }
        try check(avio_open(&target.pointee.pb, output, AVIO_FLAG_WRITE), "open \(output)")
        defer { avio_closep(&target.pointee.pb) }
        try check(avformat_write_header(target, nil), "write header")
        let packet = av_packet_alloc()
        defer { var owned = packet; av_packet_free(&owned) }
        while av_read_frame(source, packet) >= 0 {
            let index = Int(packet!.pointee.stream_index)
            av_packet_rescale_ts(packet, source.pointee.streams[index]!.pointee.time_base,
                                 target.pointee.streams[index]!.pointee.time_base)
            try check(av_interleaved_write_frame(target, packet), "write packet")
        }
        try check(av_write_trailer(target), "write trailer")
    }

    private static func check(_ result: Int32, _ operation: String) throws {
        if result < 0 { throw Failure(description: "\(operation) failed: \(result)") }
    }
}
