// The Flickr API key baked into Virtual Tourist at build time (meson's -Dflickr_api_key), or "".
#ifndef VT_FLICKR_BUILD_KEY_H
#define VT_FLICKR_BUILD_KEY_H

// meson passes the key as the C macro VT_BUILD_FLICKR_API_KEY; Swift cannot read macros from compiler flags.
const char *vt_build_flickr_api_key(void);

#endif
