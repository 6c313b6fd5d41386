#ifndef VOD_CFFMPEG_SHIM_H
#define VOD_CFFMPEG_SHIM_H

#include <errno.h>
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/channel_layout.h>
#include <libavutil/display.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libavutil/samplefmt.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>

/// `AVERROR(e)`: FFmpeg's negative error code for a POSIX errno value.
static inline int vod_averror(int posixError) { return AVERROR(posixError); }

/// `AVERROR(EAGAIN)`: the codec wants more input or has no output yet.
static inline int vod_averror_eagain(void) { return AVERROR(EAGAIN); }

/// `AVERROR_EOF`: end of stream.
static inline int vod_averror_eof(void) { return AVERROR_EOF; }

/// `AVERROR_EXIT`: an interrupt callback asked FFmpeg to stop.
static inline int vod_averror_exit(void) { return AVERROR_EXIT; }

/// `AV_NOPTS_VALUE`: a timestamp that is not set.
static inline int64_t vod_nopts_value(void) { return AV_NOPTS_VALUE; }

/// `AV_TIME_BASE`: the time base of durations in `AVFormatContext`.
static inline int vod_time_base(void) { return AV_TIME_BASE; }

/// `av_err2str`: a readable message for an FFmpeg error code.
static inline void vod_error_string(int code, char *buffer, size_t size) {
    av_strerror(code, buffer, size);
}

/// The display-matrix rotation of a stream in degrees, counter-clockwise, or 0 when there is none.
static inline double vod_stream_rotation(const AVStream *stream) {
    const uint8_t *matrix = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, NULL);
    if (!matrix) return 0;
    double rotation = av_display_rotation_get((const int32_t *)matrix);
    return rotation != rotation ? 0 : rotation;
}

#endif
