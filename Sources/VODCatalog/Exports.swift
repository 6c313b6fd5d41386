@_exported import enum VODModel.MediaStatus
@_exported import enum VODModel.MediaEventType
@_exported import enum VODModel.MediaVisibility
@_exported import enum VODModel.SegmentFormat
