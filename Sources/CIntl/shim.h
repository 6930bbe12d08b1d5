// gettext lives in glibc itself; Swift's Glibc module does not include its header.
#include <libintl.h>
