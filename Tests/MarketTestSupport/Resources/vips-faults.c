// Faults of libvips' that a real libvips cannot be made to show at will, built into a library per
// fault and put into a market by LD_PRELOAD (VipsFault in MarketTestSupport):
//   IDLE_RACE  libvips 8.14's race between an idle worker that stops and a task handed to it, made
//              certain: idle workers stop after 20 ms, and a task reaches the worker it was given to
//              100 ms after it was taken from the idle list.
//   ABORT      the process aborts while libvips decodes an upload, as glibc does on finding its heap
//              corrupted: a crash below C frames built without frame pointers.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(IDLE_RACE)

// As libvips' semaphore.h declares it.
typedef struct {
    char *name;
    int v;
    void *mutex;
    void *cond;
} VipsSemaphore;

int vips_semaphore_down_timeout(VipsSemaphore *semaphore, int64_t timeout) {
    (void)timeout;
    int (*real)(VipsSemaphore *, int64_t) = dlsym(RTLD_NEXT, "vips_semaphore_down_timeout");
    return real(semaphore, 20 * 1000);
}

int vips_semaphore_up(VipsSemaphore *semaphore) {
    int (*real)(VipsSemaphore *) = dlsym(RTLD_NEXT, "vips_semaphore_up");
    // The fault itself, not a wait: the task reaches its worker late enough for the worker to have
    // stopped. Only the thread set wakes a worker through a semaphore of this name.
    if (semaphore->name != NULL && strcmp(semaphore->name, "idle") == 0) usleep(100 * 1000);
    return real(semaphore);
}

#elif defined(ABORT)

int vips_thumbnail_buffer(void *buffer, size_t length, void **out, int width, ...) {
    (void)buffer, (void)length, (void)out, (void)width;
    abort();
}

#endif
