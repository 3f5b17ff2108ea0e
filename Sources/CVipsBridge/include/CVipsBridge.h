#ifndef OPENMARKET_VIPS_BRIDGE_H
#define OPENMARKET_VIPS_BRIDGE_H

#include <stddef.h>

// A thin, non-variadic face on the few libvips operations the market uses: Swift cannot call
// C variadic functions. libvips reads an input buffer lazily, so each call that takes one is done
// with it when it returns.

typedef enum {
    OMK_FORMAT_JPEG = 0,
    OMK_FORMAT_PNG = 1,
    OMK_FORMAT_WEBP = 2,
    OMK_FORMAT_HEIF = 3,
} omk_format;

typedef enum {
    OMK_OK = 0,
    OMK_UNREADABLE = 1,
    OMK_TOO_MANY_PIXELS = 2,
} omk_status;

typedef struct {
    void *data;       // g_malloc'd; free with omk_free
    size_t length;
    int width;
    int height;
    omk_format format;
} omk_encoded;

/// Starts libvips once per process; returns 0 on success.
int omk_start(void);

/// A decoded picture held in memory, upright and in sRGB, that several threads may encode at once.
typedef struct omk_picture omk_picture;

/// Decodes `input` once, refuses it when its header announces more than `max_pixels`, turns it
/// upright by its EXIF orientation, shrinks it to fit `long_edge` while loading (never enlarges)
/// and converts it to sRGB. The picture no longer needs `input`; release it with omk_release.
/// On failure `*error` receives a message to free with omk_free.
omk_status omk_decode(const void *input, size_t length, int long_edge, long long max_pixels, omk_picture **picture,
                      char **error);

/// Encodes the picture without any metadata, as JPEG, or PNG when it has transparency: as it is
/// when `long_edge` is 0, else shrunk to fit `long_edge` (never enlarged). Returns 0 on success;
/// on failure `*error` receives a message to free with omk_free.
int omk_encode_picture(const omk_picture *picture, int long_edge, omk_encoded *out, char **error);

void omk_release(omk_picture *picture);

/// A stored image shrunk to `width` pixels wide (never enlarged) and encoded as `format`, for the
/// smaller copies pages ask for. The image was normalized when it was stored: upright, sRGB, plain.
/// Returns 0 on success; on failure `*error` receives a message to free with omk_free.
/// 1 when this libvips can load HEIF pictures (iPhone photos), 0 otherwise.
int omk_reads_heif(void);

int omk_resize(const void *input, size_t length, int width, omk_format format, omk_encoded *out, char **error);

/// The width and height a picture's header announces, read without decoding a pixel (the first bytes of
/// a picture will do). Returns 0 on success, -1 when libvips reads no picture there.
int omk_size(const void *input, size_t length, int *width, int *height);

/// Draws a diagonal two-colour gradient with `dots` white dots in a row, for demo data and tests.
/// Returns 0 on success.
int omk_synthesize(int width, int height, const double from[3], const double to[3], int dots, omk_format format,
                   omk_encoded *out, char **error);

/// A one-bit black PNG: tiny on disk however many pixels it claims. Tests use it as a bomb.
int omk_blank_bilevel_png(int width, int height, omk_encoded *out, char **error);

void omk_free(void *pointer);

#endif
