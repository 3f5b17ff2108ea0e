// zlib (Debian's zlib1g-dev), for compressing the server's text answers.
#include <zlib.h>
