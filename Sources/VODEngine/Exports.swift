@_exported import struct VODFFmpeg.FFmpegError
@_exported import struct VODFFmpeg.MediaError
