#ifndef OPENMARKET_CRASH_REPORT_H
#define OPENMARKET_CRASH_REPORT_H

/// On a fatal signal, writes every frame of the crashed thread to standard error, named where the
/// executable or a library exports a name, then hands the signal to the handler that was there
/// before (the Swift runtime's backtracer, which shows every thread) or to the default action.
/// Swift's own backtracer walks frame pointers and so stops at the first C frame built without
/// them (libc, GLib, libvips); this report unwinds with the libraries' own unwind tables.
void crash_report_install(void);

#endif
