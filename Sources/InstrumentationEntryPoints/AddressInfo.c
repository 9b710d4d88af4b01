// Where an address of the program's code lies, for reports of what instrumented code did.
#define _GNU_SOURCE
#include "InstrumentationEntryPoints.h"

#include <dlfcn.h>

int instrumentation_address_info(const void *address, const char **image, uintptr_t *imageBase, const char **symbol,
                                 uintptr_t *symbolAddress) {
  Dl_info info;
  if (!dladdr(address, &info)) return 0;
  *image = info.dli_fname;
  *imageBase = (uintptr_t)info.dli_fbase;
  *symbol = info.dli_sname;
  *symbolAddress = (uintptr_t)info.dli_saddr;
  return 1;
}
