// The album grid's kept pictures as cairo keeps pixels in memory: a small header, then the rows. Reading one back is
// one read(2) into a new image surface, with no decoding.
#include "CShims.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

// "VTKP", then the format's version; a file of another byte order or layout does not match and is made again.
static const uint32_t kept_magic = 0x504B5456u;
static const uint32_t kept_version = 1;

struct vt_kept_header {
    uint32_t magic, version, format, width, height, stride;
};
_Static_assert(sizeof(struct vt_kept_header) == VT_KEPT_HEADER_SIZE, "the header's size");

static int read_fully(int fd, void *buffer, size_t length) {
    unsigned char *at = buffer;
    while (length > 0) {
        ssize_t got = read(fd, at, length);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return 0;
        at += got;
        length -= (size_t)got;
    }
    return 1;
}

// The file at `path` opened and its header checked (a whole picture of this size, `stamp` its modification time),
// positioned at its rows; -1 otherwise.
static int open_kept(const char *path, int width, int height, const struct timespec *stamp,
                     struct vt_kept_header *header, off_t *size) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    struct stat status;
    if (fstat(fd, &status) != 0 || status.st_mtim.tv_sec != stamp->tv_sec || status.st_mtim.tv_nsec != stamp->tv_nsec
        || !read_fully(fd, header, sizeof *header) || header->magic != kept_magic || header->version != kept_version
        || (header->format != CAIRO_FORMAT_RGB24 && header->format != CAIRO_FORMAT_ARGB32)
        || header->width != (uint32_t)width || header->height != (uint32_t)height) {
        close(fd);
        return -1;
    }
    *size = status.st_size;
    return fd;
}

// The rows, into `data` (`stride` bytes a row): only from a file of exactly the header and the rows, one cut short
// (or with more after it) is not a whole picture.
static int read_rows(int fd, const struct vt_kept_header *header, off_t size, unsigned char *data, size_t stride) {
    size_t length = stride * (size_t)header->height;
    return header->stride == stride && (off_t)(sizeof *header + length) == size && read_fully(fd, data, length);
}

cairo_surface_t *vt_kept_picture_read(const char *path, int width, int height, const struct timespec *stamp) {
    struct vt_kept_header header;
    off_t size;
    int fd = open_kept(path, width, height, stamp, &header, &size);
    if (fd < 0) return NULL;
    cairo_surface_t *surface = cairo_image_surface_create((cairo_format_t)header.format, width, height);
    int whole = cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS
        && (cairo_surface_flush(surface), read_rows(fd, &header, size, cairo_image_surface_get_data(surface),
                                                    (size_t)cairo_image_surface_get_stride(surface)));
    close(fd);
    if (!whole) {
        cairo_surface_destroy(surface);
        return NULL;
    }
    cairo_surface_mark_dirty(surface);
    return surface;
}

int vt_kept_picture_read_into(const char *path, int width, int height, const struct timespec *stamp,
                              cairo_format_t format, unsigned char *data, int stride) {
    struct vt_kept_header header;
    off_t size;
    int fd = open_kept(path, width, height, stamp, &header, &size);
    if (fd < 0) return -1;
    int read = header.format != (uint32_t)format ? 0 : read_rows(fd, &header, size, data, (size_t)stride) ? 1 : -1;
    close(fd);
    return read;
}

int vt_kept_picture_header(cairo_surface_t *surface, unsigned char header[VT_KEPT_HEADER_SIZE]) {
    cairo_format_t format = cairo_image_surface_get_format(surface);
    if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS
        || (format != CAIRO_FORMAT_RGB24 && format != CAIRO_FORMAT_ARGB32)) return 0;
    cairo_surface_flush(surface);
    struct vt_kept_header fields = {
        kept_magic, kept_version, (uint32_t)format, (uint32_t)cairo_image_surface_get_width(surface),
        (uint32_t)cairo_image_surface_get_height(surface), (uint32_t)cairo_image_surface_get_stride(surface)
    };
    memcpy(header, &fields, sizeof fields);
    return 1;
}
