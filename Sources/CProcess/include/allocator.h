#ifndef OPENMARKET_ALLOCATOR_H
#define OPENMARKET_ALLOCATOR_H

/// Makes glibc's allocator give large blocks back: every block of 256 KB and more (request bodies,
/// decoded pictures) is mapped on its own and returned to the system when freed, and the process
/// keeps one heap per core rather than eight. Left to itself, glibc raises that threshold each
/// time such a block is freed, after which photos are carved out of heaps that never shrink.
/// Does nothing when GLIBC_TUNABLES sets the allocator (the operator's choice) or off glibc.
void allocator_return_large_blocks(void);

#endif
