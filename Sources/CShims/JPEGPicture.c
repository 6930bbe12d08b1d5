// A small JPEG read straight into a cairo image with libjpeg(-turbo): the album grid's kept pictures.
#include "CShims.h"

#include <setjmp.h>
#include <stdio.h>
#include <jpeglib.h>

struct vt_jpeg_error {
    struct jpeg_error_mgr manager;
    jmp_buf escape;
};

// libjpeg's default handler exits the process: a damaged file returns here instead.
static void vt_jpeg_fail(j_common_ptr info) {
    longjmp(((struct vt_jpeg_error *)info->err)->escape, 1);
}

// Warnings and traces are not printed (a damaged cache file is simply made again); warnings are still counted.
static void vt_jpeg_quiet(j_common_ptr info) {
    (void)info;
}

cairo_surface_t *vt_jpeg_read_rgb24(const unsigned char *data, size_t length, int width, int height) {
#ifndef JCS_EXTENSIONS
    (void)data; (void)length; (void)width; (void)height;
    return NULL; // a libjpeg without libjpeg-turbo's output orders: the caller decodes another way
#else
    struct jpeg_decompress_struct info;
    struct vt_jpeg_error error;
    // volatile: assigned after setjmp, read after a longjmp back to it.
    cairo_surface_t *volatile surface = NULL;

    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = vt_jpeg_fail;
    error.manager.output_message = vt_jpeg_quiet;
    if (setjmp(error.escape)) {
        jpeg_destroy_decompress(&info);
        if (surface) cairo_surface_destroy(surface);
        return NULL;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, (unsigned long)length);
    if (jpeg_read_header(&info, TRUE) != JPEG_HEADER_OK
        || (int)info.image_width != width || (int)info.image_height != height) {
        jpeg_destroy_decompress(&info);
        return NULL;
    }
    // cairo's RGB24: one native 32-bit word per pixel, unused byte, then red, green and blue.
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    info.out_color_space = JCS_EXT_XRGB;
#else
    info.out_color_space = JCS_EXT_BGRX;
#endif
    jpeg_start_decompress(&info);
    surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
    if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
        jpeg_destroy_decompress(&info);
        cairo_surface_destroy(surface);
        return NULL;
    }
    unsigned char *pixels = cairo_image_surface_get_data(surface);
    int stride = cairo_image_surface_get_stride(surface);
    cairo_surface_flush(surface);
    while (info.output_scanline < info.output_height) {
        JSAMPROW row = pixels + (size_t)info.output_scanline * (size_t)stride;
        jpeg_read_scanlines(&info, &row, 1);
    }
    jpeg_finish_decompress(&info);
    // A file cut short only warns (libjpeg pads it with grey): a kept picture must be whole.
    long warnings = error.manager.num_warnings;
    jpeg_destroy_decompress(&info);
    if (warnings != 0) {
        cairo_surface_destroy(surface);
        return NULL;
    }
    cairo_surface_mark_dirty(surface);
    return surface;
#endif
}
