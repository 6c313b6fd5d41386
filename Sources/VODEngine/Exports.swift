@_exported import struct VODFFmpeg.FFmpegError
@_exported import struct VODFFmpeg.MediaError
@_exported import class VODFFmpeg.CancellationFlag
@_exported import enum VODFFmpeg.DedicatedThread
@_exported import struct VODModel.SourceSummary
@_exported import struct VODModel.TrackListing
@_exported import enum VODModel.DynamicRange
@_exported import struct VODModel.Chapter
