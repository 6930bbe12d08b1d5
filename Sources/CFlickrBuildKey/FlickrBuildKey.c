// Swift cannot read a macro given on the command line (-DVT_BUILD_FLICKR_API_KEY), so C returns it.
#include "CFlickrBuildKey.h"

#ifndef VT_BUILD_FLICKR_API_KEY
#define VT_BUILD_FLICKR_API_KEY ""
#endif

const char *vt_build_flickr_api_key(void) {
    return VT_BUILD_FLICKR_API_KEY;
}
