// The Swift type records of the image this code is linked into (the program's, as SwiftPM links a
// test or an executable): the `swift5_type_metadata` section, which the linker brackets with
// these two symbols on ELF platforms. Each record is a 32-bit relative reference to a type's
// context descriptor. Elsewhere, or where the image has no such section, there are none.
#include "InstrumentationEntryPoints.h"

#if defined(__ELF__)
extern const int32_t __start_swift5_type_metadata[] __attribute__((weak, visibility("hidden")));
extern const int32_t __stop_swift5_type_metadata[] __attribute__((weak, visibility("hidden")));
#endif

const int32_t *instrumentation_type_records(size_t *count) {
#if defined(__ELF__)
  if (__start_swift5_type_metadata && __stop_swift5_type_metadata &&
      __stop_swift5_type_metadata > __start_swift5_type_metadata) {
    *count = (size_t)(__stop_swift5_type_metadata - __start_swift5_type_metadata);
    return __start_swift5_type_metadata;
  }
#endif
  *count = 0;
  return 0;
}
