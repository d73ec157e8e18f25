// zlib (Debian's zlib1g-dev), for the test support only: the in-process fixture HTTP server
// gzip-compresses its bodies as the Python one and the real providers do. No symbols of our own.
#include <zlib.h>
