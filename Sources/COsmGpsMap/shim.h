#include <osm-gps-map.h>
