#include <stdlib.h>
#include "alloc.h"

#ifdef HAVE_MALLOC_SIZE
#define block_size(p) malloc_size(p)
#else
/* Only builds without an allocator that knows block sizes compile this one. */
size_t block_size(void *ptr) {
  return *((size_t *)ptr - 1);
}
#endif

#if defined(__cplusplus)
extern "C" {
#endif

void *alloc_block(size_t size) {
  void *ptr = malloc(size + sizeof(size_t));
  return ptr;
}

#if defined(__cplusplus)
}
#endif
