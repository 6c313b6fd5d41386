import Foundation

/// Fixtures that look like what phones, cameras and broadcasters write: HDR, interlaced, full-range and SD.
extension SyntheticClip {
    /// HEVC Main 10 whose code values really are HDR: the test pattern converted by zscale into BT.2020 with
    /// `transfer` (`arib-std-b67` for HLG, `smpte2084` for PQ), tagged as a phone or an HDR10 master tags it.
    public static func hdr(transfer: String, width: Int = 640, height: Int = 360, duration: Double = 2) -> SyntheticClip {
        var clip = SyntheticClip(width: width, height: height, duration: duration)
        clip.pixelFormat = "yuv420p10le"
        var x265 = "log-level=error:colorprim=bt2020:transfer=\(transfer):colormatrix=bt2020nc"
        if transfer == "smpte2084" {
            x265 += ":hdr10=1:master-display=G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)L(10000000,1)"
                + ":max-cll=1000,400"
        }
        clip.videoCodec = ["-c:v", "libx265", "-preset", "ultrafast", "-x265-params", x265]
        clip.extraArguments = [
            "-vf", "zscale=tin=709:pin=709:min=709:t=\(transfer):p=2020:m=2020_ncl:npl=100",
            "-color_primaries", "bt2020", "-color_trc", transfer, "-colorspace", "bt2020nc",
        ]
        return clip
    }

    /// Interlaced H.264 as a 1080i broadcast or a camera writes it: 50 fields a second woven into 25 frames,
    /// top field first, coded as interlaced and flagged so in the container.
    public static func interlaced(width: Int = 1920, height: Int = 1080, duration: Double = 2) -> SyntheticClip {
        var clip = SyntheticClip(width: width, height: height, duration: duration)
        clip.frameRate = "50"
        clip.videoCodec = ["-c:v", "libx264", "-preset", "ultrafast", "-flags", "+ildct+ilme", "-x264-params", "tff=1"]
        clip.extraArguments = ["-vf", "tinterlace=mode=interleave_top,setfield=tff"]
        return clip
    }

    /// PAL DV as a camcorder tape gives it: 720×576, 25 frames of bottom-first fields, SAR 16:15, and a
    /// container that says nothing about fields; only the frames are flagged interlaced.
    public static func dv(duration: Double = 2) -> SyntheticClip {
        var clip = SyntheticClip(width: 720, height: 576, duration: duration)
        clip.frameRate = "50"
        clip.container = "dv"
        clip.hasAudio = false
        clip.videoCodec = ["-c:v", "dvvideo"]
        clip.extraArguments = ["-vf", "tinterlace=mode=interleave_bottom,setfield=bff"]
        return clip
    }

    /// VP9 in IVF whose every frame is zeroed after its 12-byte IVF frame header: the container is sound, but
    /// no picture decodes ("Invalid frame marker"). Returns its path.
    public static func undecodable(in directory: URL) async throws -> String {
        var clip = SyntheticClip(width: 320, height: 240, duration: 2, hasAudio: false)
        clip.container = "ivf"
        clip.videoCodec = ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8"]
        let path = try await clip.make(in: directory, name: "undecodable")
        let packets = try await ExternalTool.require("ffprobe", [
            "-v", "error", "-select_streams", "v", "-show_entries", "packet=pos,size", "-of", "csv=p=0", path,
        ]).standardOutput.split(separator: "\n").compactMap { line -> (start: Int, size: Int)? in
            // ffprobe prints a packet's size before its position, which is that of the IVF frame header.
            let fields = line.split(separator: ",").compactMap { Int($0) }
            return fields.count == 2 ? (fields[1] + 12, fields[0]) : nil
        }
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        guard !packets.isEmpty, packets.allSatisfy({ $0.start + $0.size <= bytes.count }) else {
            throw ToolError(description: "unexpected IVF packet layout in \(path)")
        }
        for packet in packets {
            bytes.replaceSubrange(packet.start..<(packet.start + packet.size), with: Data(count: packet.size))
        }
        try bytes.write(to: URL(fileURLWithPath: path))
        return path
    }
}
