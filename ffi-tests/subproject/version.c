/* Links vkalgo and checks that the library's version (vkalgo_version()) is the header's and the
 * CMake project's (EXPECT_*). No Vulkan device is needed. */
#include <vkalgo.h>

#include <stdio.h>

#if VKALGO_VERSION_MAJOR != EXPECT_MAJOR || VKALGO_VERSION_MINOR != EXPECT_MINOR || \
    VKALGO_VERSION_PATCH != EXPECT_PATCH
#error "vkalgo.h's VKALGO_VERSION_* differ from the CMake project's version"
#endif

int main(void) {
    uint32_t want = ((uint32_t)VKALGO_VERSION_MAJOR << 22) | ((uint32_t)VKALGO_VERSION_MINOR << 12) |
                    (uint32_t)VKALGO_VERSION_PATCH;
    uint32_t got = vkalgo_version();
    printf("vkalgo %u.%u.%u (header %d.%d.%d)\n", (unsigned)(got >> 22), (unsigned)((got >> 12) & 0x3FFu),
           (unsigned)(got & 0xFFFu), VKALGO_VERSION_MAJOR, VKALGO_VERSION_MINOR, VKALGO_VERSION_PATCH);
    return got == want ? 0 : 1;
}
