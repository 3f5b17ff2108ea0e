#include "allocator.h"

#if defined(__linux__)
#include <malloc.h>  // defines __GLIBC__ on glibc, where mallopt takes these settings
#endif

#if defined(__GLIBC__)
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void allocator_return_large_blocks(void) {
    const char *tunables = getenv("GLIBC_TUNABLES");
    if (tunables != NULL && strstr(tunables, "glibc.malloc.") != NULL) return;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    mallopt(M_MMAP_THRESHOLD, 256 * 1024);
    mallopt(M_ARENA_MAX, cores > 2 ? (int)cores : 2);
}
#else
void allocator_return_large_blocks(void) {}
#endif
