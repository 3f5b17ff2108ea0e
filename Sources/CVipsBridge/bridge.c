#include "CVipsBridge.h"

#include <vips/vips.h>

// Copied and cleared under libvips' lock: other threads write the same buffer.
static char *take_error(void) {
    char *message = vips_error_buffer_copy();
    if (message[0] == '\0') {
        g_free(message);
        message = g_strdup("libvips failed without a message");
    }
    return message;
}

static void unref_all(VipsObject **objects, int count) {
    for (int i = 0; i < count; i++) {
        if (objects[i] != NULL) g_object_unref(objects[i]);
    }
}

#if defined(__linux__)
// libvips from 8.14.1 (Debian 12's) until its thread set was rewritten in 8.15 stops a worker
// thread after 15 s idle, and may hand it a task in the moment it stops: the task is then written
// into memory the worker has just freed, which crashed the market (docs/contributing.md, "The
// picture path under sanitizers"). Only that thread set waits with a timeout, so this definition,
// exported from the executable ahead of libvips' own, keeps idle workers for the life of the
// process and closes the race. Later versions never call it.
int vips_semaphore_down_timeout(VipsSemaphore *semaphore, gint64 timeout) {
    (void)timeout;
    return vips_semaphore_down(semaphore);
}
#endif

int omk_start(void) {
    if (VIPS_INIT("openmarket") != 0) return -1;
    // Every upload is different: caching operations would only hold memory.
    vips_cache_set_max(0);
    // One thread per picture: the market runs pictures side by side in its own slots, one per core.
    vips_concurrency_set(1);
    return 0;
}

static int encode(VipsImage *image, omk_format format, int bitdepth, omk_encoded *out) {
    void *data = NULL;
    size_t length = 0;
    int result;
    switch (format) {
    case OMK_FORMAT_PNG:
        result = bitdepth > 0
            ? vips_pngsave_buffer(image, &data, &length, "strip", TRUE, "bitdepth", bitdepth, NULL)
            : vips_pngsave_buffer(image, &data, &length, "strip", TRUE, "compression", 6, NULL);
        break;
    case OMK_FORMAT_WEBP:
        result = vips_webpsave_buffer(image, &data, &length, "strip", TRUE, "Q", 85, NULL);
        break;
    case OMK_FORMAT_HEIF:
        result = vips_heifsave_buffer(image, &data, &length, "strip", TRUE, "Q", 50, "compression",
                                      VIPS_FOREIGN_HEIF_COMPRESSION_HEVC, NULL);
        break;
    default:
        result = vips_jpegsave_buffer(image, &data, &length, "strip", TRUE, "Q", 85, "optimize_coding", TRUE,
                                      "interlace", TRUE, NULL);
        break;
    }
    if (result != 0) return -1;
    out->data = data;
    out->length = length;
    out->width = vips_image_get_width(image);
    out->height = vips_image_get_height(image);
    out->format = format;
    return 0;
}

struct omk_picture {
    VipsImage *image;  // decoded, in memory: read by several threads at once
    omk_format format;
};

omk_status omk_decode(const void *input, size_t length, int long_edge, long long max_pixels, omk_picture **picture,
                      char **error) {
    VipsObject *objects[3] = {NULL, NULL, NULL};
    VipsImage **header = (VipsImage **)&objects[0];
    VipsImage **shrunk = (VipsImage **)&objects[1];
    VipsImage **srgb = (VipsImage **)&objects[2];

    // Opening reads only the header, so a bomb is refused before a pixel is decoded.
    *header = vips_image_new_from_buffer(input, length, "", "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    if (*header == NULL) {
        *error = take_error();
        return OMK_UNREADABLE;
    }
    long long pixels = (long long)vips_image_get_width(*header) * vips_image_get_height(*header);
    if (pixels > max_pixels) {
        unref_all(objects, 3);
        *error = g_strdup_printf("has %lld pixels", pixels);
        return OMK_TOO_MANY_PIXELS;
    }
    omk_format format = vips_image_hasalpha(*header) ? OMK_FORMAT_PNG : OMK_FORMAT_JPEG;
    // thumbnail_buffer shrinks while loading where the format allows and applies the EXIF
    // orientation; "fail_on=warning" makes a truncated or corrupt file (even one whose decoder only
    // warns, such as a header that claims more pixels than the data holds) an error instead of a
    // grey picture. The copy in memory (a few MB at most) no longer needs the input.
    VipsImage *decoded = NULL;
    if (vips_thumbnail_buffer((void *)input, length, shrunk, long_edge, "height", long_edge, "size", VIPS_SIZE_DOWN,
                              "option_string", "fail_on=warning", NULL) != 0
        || vips_colourspace(*shrunk, srgb, VIPS_INTERPRETATION_sRGB, NULL) != 0
        || (decoded = vips_image_copy_memory(*srgb)) == NULL) {
        unref_all(objects, 3);
        *error = take_error();
        return OMK_UNREADABLE;
    }
    unref_all(objects, 3);
    *picture = g_new(omk_picture, 1);
    (*picture)->image = decoded;
    (*picture)->format = format;
    return OMK_OK;
}

int omk_encode_picture(const omk_picture *picture, int long_edge, omk_encoded *out, char **error) {
    VipsImage *small = NULL;
    int failed = long_edge > 0
        ? vips_thumbnail_image(picture->image, &small, long_edge, "height", long_edge, "size", VIPS_SIZE_DOWN, NULL)
            || encode(small, picture->format, 0, out)
        : encode(picture->image, picture->format, 0, out);
    if (small != NULL) g_object_unref(small);
    if (failed) {
        *error = take_error();
        return -1;
    }
    return 0;
}

void omk_release(omk_picture *picture) {
    g_object_unref(picture->image);
    g_free(picture);
}

int omk_reads_heif(void) {
    return vips_type_find("VipsOperation", "heifload_buffer") != 0;
}

int omk_size(const void *input, size_t length, int *width, int *height) {
    VipsImage *header = vips_image_new_from_buffer(input, length, "", "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    if (header == NULL) {
        vips_error_clear();
        return -1;
    }
    *width = vips_image_get_width(header);
    *height = vips_image_get_height(header);
    g_object_unref(header);
    return 0;
}

int omk_resize(const void *input, size_t length, int width, omk_format format, omk_encoded *out, char **error) {
    VipsImage *shrunk = NULL;
    if (vips_thumbnail_buffer((void *)input, length, &shrunk, width, "size", VIPS_SIZE_DOWN, NULL) != 0
        || encode(shrunk, format, 0, out) != 0) {
        if (shrunk != NULL) g_object_unref(shrunk);
        *error = take_error();
        return -1;
    }
    g_object_unref(shrunk);
    return 0;
}

int omk_synthesize(int width, int height, const double from[3], const double to[3], int dots, omk_format format,
                   omk_encoded *out, char **error) {
    VipsObject *objects[8] = {NULL};
    VipsImage **t = (VipsImage **)objects;
    double scale[3], offset[3];
    for (int band = 0; band < 3; band++) {
        scale[band] = (to[band] - from[band]) / 2.0;
        offset[band] = from[band];
    }
    // (x / width + y / height) mixes the two colours along the diagonal; t[7] is a copy in memory
    // that the dots are drawn on.
    int failed = vips_xyz(&t[0], width, height, NULL)
        || vips_extract_band(t[0], &t[1], 0, NULL)
        || vips_extract_band(t[0], &t[2], 1, NULL)
        || vips_linear1(t[1], &t[3], 1.0 / width, 0.0, NULL)
        || vips_linear1(t[2], &t[4], 1.0 / height, 0.0, NULL)
        || vips_add(t[3], t[4], &t[5], NULL)
        || vips_linear(t[5], &t[6], scale, offset, 3, "uchar", TRUE, NULL)
        || (t[7] = vips_image_copy_memory(t[6])) == NULL;
    double white[3] = {255, 255, 255};
    int radius = (width < height ? width : height) / 12;
    for (int dot = 0; !failed && dot < dots; dot++) {
        int cx = width * (dot + 1) / (dots + 1);
        failed = vips_draw_circle(t[7], white, 3, cx, height / 2, radius, "fill", TRUE, NULL);
    }
    if (failed || encode(t[7], format, 0, out) != 0) {
        unref_all(objects, 8);
        *error = take_error();
        return -1;
    }
    unref_all(objects, 8);
    return 0;
}

int omk_blank_bilevel_png(int width, int height, omk_encoded *out, char **error) {
    VipsImage *black = NULL;
    if (vips_black(&black, width, height, NULL) != 0 || encode(black, OMK_FORMAT_PNG, 1, out) != 0) {
        if (black != NULL) g_object_unref(black);
        *error = take_error();
        return -1;
    }
    g_object_unref(black);
    return 0;
}

void omk_free(void *pointer) { g_free(pointer); }
