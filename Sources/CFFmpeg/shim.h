#ifndef VOD_CFFMPEG_SHIM_H
#define VOD_CFFMPEG_SHIM_H

#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavcodec/avcodec.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavutil/avutil.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/channel_layout.h>
#include <libavutil/display.h>
#include <libavutil/dovi_meta.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/mastering_display_metadata.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libavutil/samplefmt.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

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

/// The Dolby Vision configuration of a stream: its profile and base-layer compatibility id, or -1 for both
/// when the stream carries no Dolby Vision configuration record.
static inline void vod_stream_dolby_vision(const AVStream *stream, int *profile, int *compatibility) {
    const AVDOVIDecoderConfigurationRecord *record =
        (const AVDOVIDecoderConfigurationRecord *)av_stream_get_side_data(stream, AV_PKT_DATA_DOVI_CONF, NULL);
    *profile = record ? record->dv_profile : -1;
    *compatibility = record ? record->dv_bl_signal_compatibility_id : -1;
}

/// The brightest light level a stream declares, in cd/m²: its content light level (MaxCLL), else its
/// mastering display's peak, else 0.
static inline double vod_stream_peak_luminance(const AVStream *stream) {
    const AVContentLightMetadata *light =
        (const AVContentLightMetadata *)av_stream_get_side_data(stream, AV_PKT_DATA_CONTENT_LIGHT_LEVEL, NULL);
    if (light && light->MaxCLL > 0) return light->MaxCLL;
    const AVMasteringDisplayMetadata *mastering =
        (const AVMasteringDisplayMetadata *)av_stream_get_side_data(stream, AV_PKT_DATA_MASTERING_DISPLAY_METADATA, NULL);
    if (mastering && mastering->has_luminance && mastering->max_luminance.den > 0)
        return av_q2d(mastering->max_luminance);
    return 0;
}

/// Where FFmpeg's error messages about one codec are kept, so a failure can say in words what went wrong.
/// A codec context points at one through its `opaque` field; frame-thread copies of the context share it.
/// It also keeps the size of the last picture the codec refused to allocate (past its `max_pixels`), 0×0 if none.
typedef struct VODLogCapture {
    pthread_mutex_t lock;
    char message[256];
    unsigned refusedWidth;
    unsigned refusedHeight;
} VODLogCapture;

/// The codec context a log message is about: the context itself, or the codec whose helper logged it (picture
/// size checks log as `IMGUTILS`, whose parent is the codec); NULL for anything else.
static inline AVCodecContext *vod_log_codec(void *context) {
    if (!context) return NULL;
    const AVClass *class = *(const AVClass **)context;
    if (class == avcodec_get_class()) return (AVCodecContext *)context;
    if (!class || class->parent_log_context_offset <= 0) return NULL;
    void *parent = *(void **)((uint8_t *)context + class->parent_log_context_offset);
    return parent && *(const AVClass **)parent == avcodec_get_class() ? (AVCodecContext *)parent : NULL;
}

/// Notes the size of a picture refused by `av_image_check_size2`, whose messages start `Picture size %ux%u`.
static inline void vod_log_note_refused_size(VODLogCapture *capture, const char *format, va_list arguments) {
    if (strncmp(format, "Picture size %ux%u", 18) != 0) return;
    va_list copy;
    va_copy(copy, arguments);
    unsigned width = va_arg(copy, unsigned);
    unsigned height = va_arg(copy, unsigned);
    va_end(copy);
    pthread_mutex_lock(&capture->lock);
    capture->refusedWidth = width;
    capture->refusedHeight = height;
    pthread_mutex_unlock(&capture->lock);
}

static inline void vod_log_callback(void *context, int level, const char *format, va_list arguments) {
    AVCodecContext *codec = level <= AV_LOG_ERROR ? vod_log_codec(context) : NULL;
    if (codec) {
        VODLogCapture *capture = (VODLogCapture *)codec->opaque;
        if (capture) {
            vod_log_note_refused_size(capture, format, arguments);
            char line[256];
            va_list copy;
            va_copy(copy, arguments);
            vsnprintf(line, sizeof line, format, copy);
            va_end(copy);
            size_t length = strcspn(line, "\n");
            line[length] = 0;
            if (length > 0) {
                pthread_mutex_lock(&capture->lock);
                memcpy(capture->message, line, length + 1);
                pthread_mutex_unlock(&capture->lock);
            }
        }
    }
    av_log_default_callback(context, level, format, arguments);
}

/// Sends FFmpeg's log through `vod_log_callback`: codec errors are kept where their context points, and
/// everything still goes to FFmpeg's default logger.
static inline void vod_install_log_callback(void) { av_log_set_callback(vod_log_callback); }

/// Copies the last error message kept in `capture` into `buffer` (empty when there is none).
static inline void vod_log_capture_read(VODLogCapture *capture, char *buffer, size_t size) {
    pthread_mutex_lock(&capture->lock);
    snprintf(buffer, size, "%s", capture->message);
    pthread_mutex_unlock(&capture->lock);
}

/// The size of the last picture the capture's codec refused, 0×0 when it refused none.
static inline void vod_log_capture_refused_size(VODLogCapture *capture, unsigned *width, unsigned *height) {
    pthread_mutex_lock(&capture->lock);
    *width = capture->refusedWidth;
    *height = capture->refusedHeight;
    pthread_mutex_unlock(&capture->lock);
}

/// Prepares a capture for use.
static inline void vod_log_capture_init(VODLogCapture *capture) {
    pthread_mutex_init(&capture->lock, NULL);
    capture->message[0] = 0;
    capture->refusedWidth = 0;
    capture->refusedHeight = 0;
}

/// Releases a capture's lock.
static inline void vod_log_capture_destroy(VODLogCapture *capture) { pthread_mutex_destroy(&capture->lock); }

/// Gives the memory glibc's malloc holds free back to the system (malloc_trim); does nothing on other C libraries.
static inline void vod_release_free_memory(void) {
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}

/// Caps glibc's malloc arenas at `count` (mallopt's M_ARENA_MAX); does nothing on other C libraries.
static inline int vod_limit_malloc_arenas(int count) {
#ifdef __GLIBC__
    return mallopt(M_ARENA_MAX, count);
#else
    return 1;
#endif
}

#endif
