import VODFFmpeg

/// Turns planar YUV 4:2:0 pictures by a quarter, half or three-quarter turn clockwise, so phone videos with
/// rotation metadata play upright on every player.
enum PictureRotator {
    /// A new frame holding `source` turned `degrees` clockwise (90, 180 or 270).
    static func rotate(_ source: Frame, clockwise degrees: Int) throws -> Frame {
        let turned = degrees % 180 != 0
        let width = turned ? source.height : source.width
        let height = turned ? source.width : source.height
        let output = try Frame.video(width: width, height: height, format: source.pixelFormat)
        output.pts = source.pts
        for plane in 0..<3 {
            let shift: Int32 = plane == 0 ? 0 : 1
            rotatePlane(
                source: source.planeData(plane)!, sourceStride: source.lineSize(ofPlane: plane),
                sourceWidth: Int(source.width >> shift), sourceHeight: Int(source.height >> shift),
                destination: output.planeData(plane)!, destinationStride: output.lineSize(ofPlane: plane),
                degrees: degrees
            )
        }
        return output
    }

    private static func rotatePlane(
        source: UnsafeMutablePointer<UInt8>, sourceStride: Int, sourceWidth: Int, sourceHeight: Int,
        destination: UnsafeMutablePointer<UInt8>, destinationStride: Int, degrees: Int
    ) {
        switch degrees {
        case 90:
            for row in 0..<sourceWidth {
                let line = destination + row * destinationStride
                for column in 0..<sourceHeight {
                    line[column] = source[(sourceHeight - 1 - column) * sourceStride + row]
                }
            }
        case 270:
            for row in 0..<sourceWidth {
                let line = destination + row * destinationStride
                for column in 0..<sourceHeight {
                    line[column] = source[column * sourceStride + (sourceWidth - 1 - row)]
                }
            }
        default:
            for row in 0..<sourceHeight {
                let line = destination + row * destinationStride
                let from = source + (sourceHeight - 1 - row) * sourceStride
                for column in 0..<sourceWidth {
                    line[column] = from[sourceWidth - 1 - column]
                }
            }
        }
    }
}
