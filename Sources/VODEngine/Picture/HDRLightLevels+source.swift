import VODFFmpeg

extension HDRLightLevels {
    /// The most packets read for a first picture whose SEI may carry the levels.
    private static let packetsToFirstPicture = 64

    /// The light levels of the picture of the file at `path`: those its container declares, else those its
    /// first decoded picture carries (x265 and most HDR10 encoders write them in SEI alone); nil for none.
    static func read(path: String, cancellation: CancellationFlag) throws -> HDRLightLevels? {
        let file = try MediaProber.open(path: path, cancellation: cancellation)
        guard let stream = MediaProber.pictureStream(of: file) else { return nil }
        if let declared = stream.hdrLightLevels { return declared }
        file.discardStreams(except: [stream])
        let decoder = try Codec.decoder(for: stream)
        let packet = try Packet()
        let frame = try Frame()
        var packets = 0
        while packets < packetsToFirstPicture, try file.read(into: packet) {
            defer { packet.unreference() }
            guard packet.streamIndex == stream.index else { continue }
            packets += 1
            // A damaged packet or picture is skipped, as the transcode skips it.
            guard (try? decoder.send(packet)) != nil else { continue }
            if (try? decoder.receive(into: frame)) == true {
                defer { frame.unreference() }
                return frame.hdrLightLevels
            }
        }
        return nil
    }
}
