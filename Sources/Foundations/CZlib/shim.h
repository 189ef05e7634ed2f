// zlib, for the blocks of OpenStreetMap PBF files (Debian: zlib1g-dev).
#include <zlib.h>
