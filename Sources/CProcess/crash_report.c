#include "crash_report.h"

#if defined(__linux__)
#define _GNU_SOURCE

#include <dlfcn.h>
#include <execinfo.h>
#include <fcntl.h>
#include <link.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP};
enum { SIGNAL_COUNT = sizeof fatal_signals / sizeof fatal_signals[0], FRAME_LIMIT = 256, MODULE_LIMIT = 32 };
static struct sigaction previous_actions[SIGNAL_COUNT];

// Everything below runs in a signal handler, where the heap may be what broke: no allocation,
// only system calls and the dynamic linker's lookups.

static void say(const char *text) {
    size_t length = strlen(text);
    while (length > 0) {
        ssize_t written = write(STDERR_FILENO, text, length);
        if (written <= 0) return;
        text += written;
        length -= (size_t)written;
    }
}

static void say_hex(uintptr_t value) {
    char digits[2 + 2 * sizeof value + 1];
    char *end = digits + sizeof digits - 1;
    char *at = end;
    *at = '\0';
    do {
        *--at = "0123456789abcdef"[value & 15];
        value >>= 4;
    } while (value != 0);
    *--at = 'x';
    *--at = '0';
    say(at);
}

static void say_number(int value) {
    char digits[12];
    char *at = digits + sizeof digits - 1;
    *at = '\0';
    do {
        *--at = (char)('0' + value % 10);
        value /= 10;
    } while (value != 0);
    say(at);
}

/// A loaded module's symbol table, read from its file: the full one (local functions, Swift's
/// private types and closures included) where the file has it, else the exported one.
typedef struct {
    const struct link_map *map;
    const ElfW(Sym) *symbols;
    size_t count;
    const char *names;
} Module;

static Module modules[MODULE_LIMIT];
static int module_count;

/// Points `module` at the file's section of `type` and its names, when the file has one.
static int read_table(Module *module, const char *bytes, size_t size, ElfW(Word) type) {
    const ElfW(Ehdr) *header = (const ElfW(Ehdr) *)bytes;
    const ElfW(Shdr) *sections = (const ElfW(Shdr) *)(bytes + header->e_shoff);
    for (int index = 0; index < header->e_shnum; index++) {
        const ElfW(Shdr) *table = &sections[index];
        if (table->sh_type != type || table->sh_link >= header->e_shnum) continue;
        const ElfW(Shdr) *names = &sections[table->sh_link];
        if (table->sh_offset + table->sh_size > size || names->sh_offset + names->sh_size > size) continue;
        module->symbols = (const ElfW(Sym) *)(bytes + table->sh_offset);
        module->count = table->sh_size / sizeof(ElfW(Sym));
        module->names = bytes + names->sh_offset;
        return 1;
    }
    return 0;
}

static Module *module_for(const struct link_map *map) {
    for (int index = 0; index < module_count; index++) {
        if (modules[index].map == map) return &modules[index];
    }
    if (module_count == MODULE_LIMIT) return NULL;
    Module *module = &modules[module_count++];
    *module = (Module){.map = map};
    int file = open(map->l_name[0] != '\0' ? map->l_name : "/proc/self/exe", O_RDONLY | O_CLOEXEC);
    if (file < 0) return module;
    struct stat status;
    void *mapped = fstat(file, &status) == 0 ? mmap(NULL, (size_t)status.st_size, PROT_READ, MAP_PRIVATE, file, 0)
                                               : MAP_FAILED;
    close(file);
    size_t size = (size_t)status.st_size;
    if (mapped == MAP_FAILED) return module;
    const ElfW(Ehdr) *header = mapped;
    if (size < sizeof *header || memcmp(header->e_ident, ELFMAG, SELFMAG) != 0
        || header->e_shoff + (size_t)header->e_shnum * sizeof(ElfW(Shdr)) > size)
        return module;
    if (!read_table(module, mapped, size, SHT_SYMTAB)) read_table(module, mapped, size, SHT_DYNSYM);
    return module;
}

/// The function that holds `address` exactly (never merely the nearest name before it).
static const ElfW(Sym) *function_at(const Module *module, uintptr_t address) {
    for (size_t index = 0; module != NULL && index < module->count; index++) {
        const ElfW(Sym) *symbol = &module->symbols[index];
        int type = ELF64_ST_TYPE(symbol->st_info);
        if ((type == STT_FUNC || type == STT_GNU_IFUNC) && symbol->st_shndx != SHN_UNDEF
            && address >= symbol->st_value && address - symbol->st_value < symbol->st_size)
            return symbol;
    }
    return NULL;
}

static void say_frame(int number, void *frame) {
    say("  #");
    say_number(number);
    say(" ");
    Dl_info info;
    struct link_map *map = NULL;
    if (dladdr1(frame, &info, (void **)&map, RTLD_DL_LINKMAP) == 0 || map == NULL) {
        say("? ");
        say_hex((uintptr_t)frame);
        say("\n");
        return;
    }
    const char *path = map->l_name[0] != '\0' ? map->l_name : (info.dli_fname ? info.dli_fname : "openmarket");
    const char *slash = strrchr(path, '/');
    say(slash ? slash + 1 : path);
    say(" ");
    // A return address may lie just past its call's function, when the call was its last instruction.
    uintptr_t address = (uintptr_t)frame - map->l_addr;
    const Module *module = module_for(map);
    const ElfW(Sym) *symbol = function_at(module, address - 1);
    if (symbol != NULL) {
        say(module->names + symbol->st_name);
        say(" + ");
        say_hex(address - symbol->st_value);
    } else {
        say("+ ");
        say_hex(address);
    }
    say("\n");
}

static const char *name_of(int signal) {
    switch (signal) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGILL: return "SIGILL";
    case SIGFPE: return "SIGFPE";
    case SIGABRT: return "SIGABRT";
    default: return "SIGTRAP";
    }
}

static void report(int signal, siginfo_t *info, void *context) {
    void *frames[FRAME_LIMIT];
    int count = backtrace(frames, FRAME_LIMIT);
    char thread[17] = {0};
    prctl(PR_GET_NAME, thread);
    say("\n*** openmarket crashed on ");
    say(name_of(signal));
    say(" in thread \"");
    say(thread);
    say("\". Its every frame, innermost first (Swift names are mangled: swift demangle reads them):\n");
    for (int index = 0; index < count; index++) say_frame(index, frames[index]);
    say("*** end of the crashed thread\n");
    for (int index = 0; index < SIGNAL_COUNT; index++) {
        if (fatal_signals[index] != signal) continue;
        struct sigaction *before = &previous_actions[index];
        sigaction(signal, before, NULL);
        if ((before->sa_flags & SA_SIGINFO) && before->sa_sigaction != NULL) {
            before->sa_sigaction(signal, info, context);
        } else if (before->sa_handler != SIG_DFL && before->sa_handler != SIG_IGN) {
            before->sa_handler(signal);
        }
    }
    // The handler before returned, or there was none: the default action ends the process.
    struct sigaction fallback = {.sa_handler = SIG_DFL};
    sigaction(signal, &fallback, NULL);
    raise(signal);
}

void crash_report_install(void) {
    // The first backtrace loads the unwinder; later ones, in a crash, allocate nothing.
    void *warm[1];
    backtrace(warm, 1);
    struct sigaction action = {.sa_sigaction = report, .sa_flags = SA_SIGINFO | SA_ONSTACK};
    sigemptyset(&action.sa_mask);
    for (int index = 0; index < SIGNAL_COUNT; index++) {
        sigaction(fatal_signals[index], &action, &previous_actions[index]);
    }
}

#else

// Apple's system libraries keep frame pointers, so Swift's own backtracer sees every frame there.
void crash_report_install(void) {}

#endif
