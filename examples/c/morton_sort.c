/* morton_sort: the first step of an LBVH builder with vkalgo's record layer, in C11.
 *
 *   morton_sort [points]      (default 1,000,000; VKALGO_VALIDATION=1 turns validation on)
 *
 * 1. Generates random 3-D points and their 30-bit Morton codes on the CPU.
 * 2. Creates its OWN VkInstance and VkDevice, as an engine does, and wraps them in a vkalgo
 *    context (vkalgo_context_create_external): vkalgo uses the caller's device and loader.
 * 3. Plans a stable sort of (u32 code, u32 point index) pairs on the code's 30 low bits, and
 *    allocates the buffers the plan asks for: keys, values, alternate keys and values, scratch.
 * 4. Records into ONE command buffer: upload (staging -> device-local), barrier, the sort,
 *    barrier, download (device-local -> staging), barrier to the host. Submits, waits.
 * 5. Verifies on the CPU: codes non-decreasing, the indices a permutation whose points have
 *    exactly the sorted codes, equal codes in increasing index order (the sort is stable).
 *
 * Prints a summary (with the GPU time of the sort when the queue has timestamps); exits 0 on
 * success, 1 with a message on any failure. */
#include <vkalgo.h>
#include <vulkan/vulkan.h>

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------------------------------------------ */
/* Errors                                                                                     */

static bool fail(const char *what) {
    fprintf(stderr, "morton_sort: error: %s\n", what);
    return false;
}

static bool vk_check(VkResult r, const char *call) {
    if (r == VK_SUCCESS) {
        return true;
    }
    fprintf(stderr, "morton_sort: error: %s failed with VkResult %d\n", call, (int)r);
    return false;
}

/* vkalgo reports a status code plus a thread-local message with the detail. */
static bool vkalgo_check(VkalgoResult r, const char *call) {
    if (r == VKALGO_SUCCESS) {
        return true;
    }
    fprintf(stderr, "morton_sort: error: %s failed: %s: %s\n", call, vkalgo_result_string(r),
            vkalgo_last_error_message());
    return false;
}

#define VK_CHECK(call) vk_check((call), #call)
#define VKALGO_CHECK(call) vkalgo_check((call), #call)

static double now_s(void) {
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ------------------------------------------------------------------------------------------ */
/* Points and Morton codes                                                                    */

/* xorshift64*: a deterministic, dependency-free generator is all the example needs. */
static uint64_t g_rng = 0x9E3779B97F4A7C15ull;
static uint32_t rng_u32(void) {
    g_rng ^= g_rng >> 12;
    g_rng ^= g_rng << 25;
    g_rng ^= g_rng >> 27;
    return (uint32_t)((g_rng * 0x2545F4914F6CDD1Dull) >> 32);
}
/* Uniform in [0, 1): the top 24 bits, exactly representable in a float. */
static float rng_unit(void) { return (float)(rng_u32() >> 8) * (1.0f / 16777216.0f); }

/* Morton (Z-order) codes, 10 bits per axis, 30 bits in all.
 *
 * Each coordinate is normalized to [0, 1] inside the points' bounding box and quantized to
 * 10 bits (0..1023). The three 10-bit integers are then interleaved bit by bit: bit i of x
 * goes to bit 3i+2 of the code, bit i of y to 3i+1, bit i of z to 3i. Sorting by this code
 * orders the points along a Z-order curve, so points close in the order are close in space;
 * an LBVH builder then finds its hierarchy from the common prefixes of adjacent codes.
 *
 * spread3() puts bit i of a 10-bit value at bit 3i without a loop, in four rounds: each round
 * splits every group of adjacent bits in two and shifts the upper part up by twice the lower
 * part's width (16, 8, 4, then 2 positions), which leaves every bit, in the end, three times as
 * far from bit 0 as it started. The mask after each round keeps only the bits' new places (the
 * comments show where bits 9..0 are after each line). */
static uint32_t spread3(uint32_t v) {
    v &= 0x3FFu;                          /* ---- ---- ---- ---- ---- --98 7654 3210 */
    v = (v | (v << 16)) & 0x030000FFu;    /* ---- --98 ---- ---- ---- ---- 7654 3210 */
    v = (v | (v << 8)) & 0x0300F00Fu;     /* ---- --98 ---- ---- 7654 ---- ---- 3210 */
    v = (v | (v << 4)) & 0x030C30C3u;     /* ---- --98 ---- 76-- --54 ---- 32-- --10 */
    v = (v | (v << 2)) & 0x09249249u;     /* ---- 9--8 --7- -6-- 5--4 --3- -2-- 1--0 */
    return v;
}

static uint32_t quantize10(float x, float lo, float inv_extent) {
    float t = (x - lo) * inv_extent * 1024.0f; /* [0, 1024]: the maximum maps to 1024 */
    if (!(t > 0.0f)) {
        return 0;
    }
    return t >= 1023.0f ? 1023u : (uint32_t)t;
}

typedef struct Point {
    float x, y, z;
} Point;

/* Random points in a flat, scene-like box; then their codes inside the bounding box. */
static void make_points(Point *p, uint32_t *codes, uint32_t n) {
    float lo[3] = {1e30f, 1e30f, 1e30f}, hi[3] = {-1e30f, -1e30f, -1e30f};
    for (uint32_t i = 0; i < n; i++) {
        p[i].x = -100.0f + 200.0f * rng_unit();
        p[i].y = 0.0f + 20.0f * rng_unit();
        p[i].z = -100.0f + 200.0f * rng_unit();
        const float c[3] = {p[i].x, p[i].y, p[i].z};
        for (int a = 0; a < 3; a++) {
            lo[a] = c[a] < lo[a] ? c[a] : lo[a];
            hi[a] = c[a] > hi[a] ? c[a] : hi[a];
        }
    }
    float inv[3];
    for (int a = 0; a < 3; a++) {
        inv[a] = hi[a] > lo[a] ? 1.0f / (hi[a] - lo[a]) : 0.0f; /* a flat axis quantizes to 0 */
    }
    for (uint32_t i = 0; i < n; i++) {
        codes[i] = spread3(quantize10(p[i].x, lo[0], inv[0])) << 2 |
                   spread3(quantize10(p[i].y, lo[1], inv[1])) << 1 |
                   spread3(quantize10(p[i].z, lo[2], inv[2]));
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Vulkan objects                                                                             */

typedef struct Buffer {
    VkBuffer buffer;
    VkDeviceMemory memory;
    VkDeviceSize size;
    void *mapped; /* host-visible buffers only */
} Buffer;

typedef struct App {
    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger;
    PFN_vkDestroyDebugUtilsMessengerEXT destroy_messenger;
    bool debug_utils;
    bool int64_atomics;  /* shaderBufferInt64Atomics enabled on our device */
    bool full_subgroups; /* subgroupSizeControl + computeFullSubgroups enabled */
    VkPhysicalDevice physical_device;
    VkPhysicalDeviceProperties props;
    VkPhysicalDeviceMemoryProperties memory;
    uint32_t queue_family;
    uint32_t timestamp_bits;
    VkDevice device;
    VkQueue queue;
    VkCommandPool pool;
    VkCommandBuffer cmd;
    VkFence fence;
    VkQueryPool timestamps;
    VkalgoContext *ctx;
    VkalgoSortPlan *plan;
    Buffer keys, values, keys_alt, values_alt, scratch, staging;
    bool gpu_may_be_busy; /* a wait timed out: nothing the GPU may use can be freed */
} App;

static unsigned g_validation_messages;

static VKAPI_ATTR VkBool32 VKAPI_CALL on_validation_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                            VkDebugUtilsMessageTypeFlagsEXT types,
                                                            const VkDebugUtilsMessengerCallbackDataEXT *data,
                                                            void *user) {
    (void)severity;
    (void)types;
    (void)user;
    /* The messenger only receives warnings and errors: each one fails the run. */
    g_validation_messages++;
    fprintf(stderr, "morton_sort: validation: %s\n", data && data->pMessage ? data->pMessage : "(no message)");
    return VK_FALSE;
}

static bool has_instance_layer(const char *name) {
    uint32_t n = 0;
    bool found = false;
    if (vkEnumerateInstanceLayerProperties(&n, NULL) != VK_SUCCESS || n == 0) {
        return false;
    }
    VkLayerProperties *props = malloc(n * sizeof *props);
    if (props && vkEnumerateInstanceLayerProperties(&n, props) == VK_SUCCESS) {
        for (uint32_t i = 0; i < n && !found; i++) {
            found = strcmp(props[i].layerName, name) == 0;
        }
    }
    free(props);
    return found;
}

static bool has_instance_extension(const char *layer, const char *name) {
    uint32_t n = 0;
    bool found = false;
    if (vkEnumerateInstanceExtensionProperties(layer, &n, NULL) != VK_SUCCESS || n == 0) {
        return false;
    }
    VkExtensionProperties *props = malloc(n * sizeof *props);
    if (props && vkEnumerateInstanceExtensionProperties(layer, &n, props) == VK_SUCCESS) {
        for (uint32_t i = 0; i < n && !found; i++) {
            found = strcmp(props[i].extensionName, name) == 0;
        }
    }
    free(props);
    return found;
}

static bool has_device_extension(VkPhysicalDevice pd, const char *name) {
    uint32_t n = 0;
    bool found = false;
    if (vkEnumerateDeviceExtensionProperties(pd, NULL, &n, NULL) != VK_SUCCESS || n == 0) {
        return false;
    }
    VkExtensionProperties *props = malloc(n * sizeof *props);
    if (props && vkEnumerateDeviceExtensionProperties(pd, NULL, &n, props) == VK_SUCCESS) {
        for (uint32_t i = 0; i < n && !found; i++) {
            found = strcmp(props[i].extensionName, name) == 0;
        }
    }
    free(props);
    return found;
}

/* The instance, with the Khronos validation layer (and its synchronization validation) when
 * VKALGO_VALIDATION=1 and the layer is installed. */
static bool create_instance(App *a) {
    const char *env = getenv("VKALGO_VALIDATION");
    const char *layer = "VK_LAYER_KHRONOS_validation";
    bool validation = env && strcmp(env, "1") == 0;
    if (validation && !(has_instance_layer(layer) && has_instance_extension(NULL, VK_EXT_DEBUG_UTILS_EXTENSION_NAME))) {
        printf("note: VKALGO_VALIDATION=1 but %s or %s is missing: running without validation\n", layer,
               VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
        validation = false;
    }
    bool sync_validation = validation && has_instance_extension(layer, VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
    a->debug_utils = validation;

    const char *extensions[2];
    uint32_t extension_count = 0;
    if (validation) {
        extensions[extension_count++] = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    }
    if (sync_validation) {
        extensions[extension_count++] = VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME;
    }
    VkDebugUtilsMessengerCreateInfoEXT messenger_info = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT,
        .pfnUserCallback = on_validation_message,
    };
    const VkValidationFeatureEnableEXT enables[] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
    VkValidationFeaturesEXT features = {
        .sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT,
        .pNext = &messenger_info, /* also catches messages of vkCreateInstance itself */
        .enabledValidationFeatureCount = 1,
        .pEnabledValidationFeatures = enables,
    };
    /* apiVersion is the highest version the program is written for; devices of 1.2 still work
     * (vkalgo needs 1.2; this program uses only 1.2 core API). */
    VkApplicationInfo app = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
        .pApplicationName = "vkalgo morton_sort",
        .apiVersion = VK_API_VERSION_1_3,
    };
    VkInstanceCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
        .pNext = !validation ? NULL : sync_validation ? (const void *)&features : (const void *)&messenger_info,
        .pApplicationInfo = &app,
        .enabledLayerCount = validation ? 1u : 0u,
        .ppEnabledLayerNames = &layer,
        .enabledExtensionCount = extension_count,
        .ppEnabledExtensionNames = extensions,
    };
    if (!VK_CHECK(vkCreateInstance(&info, NULL, &a->instance))) {
        return false;
    }
    if (validation) {
        PFN_vkCreateDebugUtilsMessengerEXT create =
            (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(a->instance, "vkCreateDebugUtilsMessengerEXT");
        a->destroy_messenger =
            (PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(a->instance, "vkDestroyDebugUtilsMessengerEXT");
        if (!create || !a->destroy_messenger) {
            return fail("vkCreateDebugUtilsMessengerEXT is missing");
        }
        if (!VK_CHECK(create(a->instance, &messenger_info, NULL, &a->messenger))) {
            return false;
        }
    }
    printf("validation: %s\n", !validation ? "off" : sync_validation ? "on (with synchronization validation)" : "on");
    return true;
}

/* The queue family for the work: compute, preferably with timestamps. UINT32_MAX: none. */
static uint32_t pick_queue_family(VkPhysicalDevice pd, uint32_t *timestamp_bits) {
    uint32_t n = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, NULL);
    VkQueueFamilyProperties *families = malloc((n ? n : 1) * sizeof *families);
    uint32_t best = UINT32_MAX;
    *timestamp_bits = 0;
    if (families) {
        vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, families);
        for (uint32_t f = 0; f < n; f++) {
            if ((families[f].queueFlags & VK_QUEUE_COMPUTE_BIT) &&
                (best == UINT32_MAX || (*timestamp_bits == 0 && families[f].timestampValidBits > 0))) {
                best = f;
                *timestamp_bits = families[f].timestampValidBits;
            }
        }
    }
    free(families);
    return best;
}

/* The physical device: Vulkan 1.2+, bufferDeviceAddress, shaderInt64 and a compute queue (what
 * vkalgo requires); a discrete GPU first, then integrated, virtual, CPU. */
static bool pick_physical_device(App *a) {
    uint32_t n = 0;
    if (!VK_CHECK(vkEnumeratePhysicalDevices(a->instance, &n, NULL))) {
        return false;
    }
    VkPhysicalDevice *devices = malloc((n ? n : 1) * sizeof *devices);
    if (!devices) {
        return fail("out of host memory");
    }
    vkEnumeratePhysicalDevices(a->instance, &n, devices);
    int best_score = -1;
    for (uint32_t i = 0; i < n; i++) {
        VkPhysicalDeviceProperties props;
        vkGetPhysicalDeviceProperties(devices[i], &props);
        if (props.apiVersion < VK_API_VERSION_1_2) {
            continue;
        }
        VkPhysicalDeviceVulkan12Features f12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
        VkPhysicalDeviceFeatures2 f = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f12};
        vkGetPhysicalDeviceFeatures2(devices[i], &f);
        uint32_t bits;
        if (!f12.bufferDeviceAddress || !f.features.shaderInt64 || pick_queue_family(devices[i], &bits) == UINT32_MAX) {
            continue;
        }
        int score = props.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU     ? 4
                    : props.deviceType == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU ? 3
                    : props.deviceType == VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU    ? 2
                                                                                 : 1;
        if (score > best_score) {
            best_score = score;
            a->physical_device = devices[i];
        }
    }
    free(devices);
    if (best_score < 0) {
        return fail("no Vulkan 1.2+ device with bufferDeviceAddress, shaderInt64 and a compute queue");
    }
    vkGetPhysicalDeviceProperties(a->physical_device, &a->props);
    vkGetPhysicalDeviceMemoryProperties(a->physical_device, &a->memory);
    a->queue_family = pick_queue_family(a->physical_device, &a->timestamp_bits);
    return true;
}

/* The device with the features vkalgo uses.
 *
 * vkalgo reads what the device SUPPORTS and assumes the optional features it finds are enabled,
 * so enable each of them whenever it is supported:
 * - bufferDeviceAddress and shaderInt64: required (every buffer is reached by its address).
 * - shaderBufferInt64Atomics: the single-pass look-back algorithms (Onesweep) use it.
 * - subgroupSizeControl + computeFullSubgroups (core in 1.3, VK_EXT_subgroup_size_control in
 *   1.2): vkalgo then creates its pipelines with REQUIRE_FULL_SUBGROUPS. On a 1.2 device the
 *   extension itself must be enabled too. */
static bool create_device(App *a) {
    const bool core13 = a->props.apiVersion >= VK_API_VERSION_1_3;
    const bool size_control_ext =
        !core13 && has_device_extension(a->physical_device, VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME);
    /* VkPhysicalDeviceSubgroupSizeControlFeatures is the 1.3 struct and the extension's alike. */
    VkPhysicalDeviceSubgroupSizeControlFeatures q_size = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES,
    };
    VkPhysicalDeviceVulkan12Features q12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
        .pNext = core13 || size_control_ext ? &q_size : NULL,
    };
    VkPhysicalDeviceFeatures2 q = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &q12};
    vkGetPhysicalDeviceFeatures2(a->physical_device, &q);
    const bool full_subgroups = q_size.computeFullSubgroups == VK_TRUE;

    VkPhysicalDeviceSubgroupSizeControlFeatures e_size = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES,
        .subgroupSizeControl = q_size.subgroupSizeControl,
        .computeFullSubgroups = q_size.computeFullSubgroups,
    };
    VkPhysicalDeviceVulkan12Features e12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
        .pNext = full_subgroups ? &e_size : NULL,
        .bufferDeviceAddress = VK_TRUE,
        .shaderBufferInt64Atomics = q12.shaderBufferInt64Atomics,
    };
    VkPhysicalDeviceFeatures2 enabled = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &e12};
    enabled.features.shaderInt64 = VK_TRUE;
    const char *extensions[] = {VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME};
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queue_info = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
        .queueFamilyIndex = a->queue_family,
        .queueCount = 1,
        .pQueuePriorities = &priority,
    };
    VkDeviceCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .pNext = &enabled,
        .queueCreateInfoCount = 1,
        .pQueueCreateInfos = &queue_info,
        .enabledExtensionCount = full_subgroups && size_control_ext ? 1u : 0u,
        .ppEnabledExtensionNames = extensions,
    };
    if (!VK_CHECK(vkCreateDevice(a->physical_device, &info, NULL, &a->device))) {
        return false;
    }
    vkGetDeviceQueue(a->device, a->queue_family, 0, &a->queue);
    a->int64_atomics = q12.shaderBufferInt64Atomics == VK_TRUE;
    a->full_subgroups = full_subgroups;
    printf("device: %s (Vulkan %u.%u), queue family %" PRIu32 ", shaderBufferInt64Atomics %s, "
           "computeFullSubgroups %s\n",
           a->props.deviceName, VK_API_VERSION_MAJOR(a->props.apiVersion), VK_API_VERSION_MINOR(a->props.apiVersion),
           a->queue_family, q12.shaderBufferInt64Atomics ? "on" : "unsupported", full_subgroups ? "on" : "unsupported");

    VkCommandPoolCreateInfo pool_info = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
        .queueFamilyIndex = a->queue_family,
    };
    VkCommandBufferAllocateInfo cmd_info = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1,
    };
    VkFenceCreateInfo fence_info = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    if (!VK_CHECK(vkCreateCommandPool(a->device, &pool_info, NULL, &a->pool))) {
        return false;
    }
    cmd_info.commandPool = a->pool;
    if (!VK_CHECK(vkAllocateCommandBuffers(a->device, &cmd_info, &a->cmd)) ||
        !VK_CHECK(vkCreateFence(a->device, &fence_info, NULL, &a->fence))) {
        return false;
    }
    if (a->timestamp_bits > 0) {
        VkQueryPoolCreateInfo query_info = {
            .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
            .queryType = VK_QUERY_TYPE_TIMESTAMP,
            .queryCount = 2,
        };
        if (!VK_CHECK(vkCreateQueryPool(a->device, &query_info, NULL, &a->timestamps))) {
            return false;
        }
    }
    return true;
}

/* A memory type allowed by `bits` with all of `required`, preferring also `preferred`. */
static uint32_t find_memory_type(const App *a, uint32_t bits, VkMemoryPropertyFlags required,
                                 VkMemoryPropertyFlags preferred) {
    uint32_t fallback = UINT32_MAX;
    for (uint32_t i = 0; i < a->memory.memoryTypeCount; i++) {
        VkMemoryPropertyFlags flags = a->memory.memoryTypes[i].propertyFlags;
        if (!(bits & (1u << i)) || (flags & required) != required) {
            continue;
        }
        if ((flags & preferred) == preferred) {
            return i;
        }
        if (fallback == UINT32_MAX) {
            fallback = i;
        }
    }
    return fallback;
}

/* A buffer with its own memory. Device-local buffers hold the data vkalgo works on (an engine
 * would sub-allocate them, e.g. with VMA, and could alias the scratch with other transient
 * memory); the host-visible one is the staging buffer for uploads and downloads. */
static bool buffer_create(App *a, VkDeviceSize size, VkBufferUsageFlags usage, bool host_visible, const char *name,
                          Buffer *b) {
    VkBufferCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = size > 0 ? size : 16, /* Vulkan buffers cannot be empty */
        .usage = usage,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    if (!VK_CHECK(vkCreateBuffer(a->device, &info, NULL, &b->buffer))) {
        fprintf(stderr, "  (buffer %s, %" PRIu64 " bytes)\n", name, (uint64_t)info.size);
        return false;
    }
    b->size = info.size;
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(a->device, b->buffer, &req);
    uint32_t type = host_visible
                        ? find_memory_type(a, req.memoryTypeBits,
                                           VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                                           VK_MEMORY_PROPERTY_HOST_CACHED_BIT) /* cached: fast CPU reads */
                        : find_memory_type(a, req.memoryTypeBits, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    if (type == UINT32_MAX) {
        fprintf(stderr, "morton_sort: error: no suitable memory type for buffer %s\n", name);
        return false;
    }
    /* Memory of buffers with SHADER_DEVICE_ADDRESS usage must be allocated with this flag. */
    VkMemoryAllocateFlagsInfo flags = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
        .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT,
    };
    VkMemoryAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .pNext = (usage & VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT) ? &flags : NULL,
        .allocationSize = req.size,
        .memoryTypeIndex = type,
    };
    if (!VK_CHECK(vkAllocateMemory(a->device, &alloc, NULL, &b->memory)) ||
        !VK_CHECK(vkBindBufferMemory(a->device, b->buffer, b->memory, 0))) {
        fprintf(stderr, "  (buffer %s, %" PRIu64 " bytes)\n", name, (uint64_t)req.size);
        return false;
    }
    if (host_visible && !VK_CHECK(vkMapMemory(a->device, b->memory, 0, VK_WHOLE_SIZE, 0, &b->mapped))) {
        return false;
    }
    return true;
}

static void buffer_destroy(App *a, Buffer *b) {
    if (b->buffer) {
        vkDestroyBuffer(a->device, b->buffer, NULL);
    }
    if (b->memory) {
        vkFreeMemory(a->device, b->memory, NULL); /* unmaps it */
    }
    memset(b, 0, sizeof *b);
}

/* Destroys whatever exists, in reverse order of creation: the vkalgo plan and context before
 * the device they use. */
static void app_destroy(App *a) {
    if (a->gpu_may_be_busy) {
        fprintf(stderr, "morton_sort: the GPU did not finish: leaking its objects rather than freeing them under it\n");
        return;
    }
    if (a->device) {
        vkDeviceWaitIdle(a->device); /* vkalgo objects may only go once their work is done */
    }
    vkalgo_sort_plan_destroy(a->plan); /* NULL: no-op */
    vkalgo_context_destroy(a->ctx);
    if (a->device) {
        buffer_destroy(a, &a->keys);
        buffer_destroy(a, &a->values);
        buffer_destroy(a, &a->keys_alt);
        buffer_destroy(a, &a->values_alt);
        buffer_destroy(a, &a->scratch);
        buffer_destroy(a, &a->staging);
        if (a->timestamps) {
            vkDestroyQueryPool(a->device, a->timestamps, NULL);
        }
        if (a->fence) {
            vkDestroyFence(a->device, a->fence, NULL);
        }
        if (a->pool) {
            vkDestroyCommandPool(a->device, a->pool, NULL); /* frees the command buffer */
        }
        vkDestroyDevice(a->device, NULL);
    }
    if (a->messenger) {
        a->destroy_messenger(a->instance, a->messenger, NULL);
    }
    if (a->instance) {
        vkDestroyInstance(a->instance, NULL);
    }
    memset(a, 0, sizeof *a);
}

/* One global memory barrier: with buffers in one queue there is nothing a per-buffer barrier
 * would add (and drivers treat them alike). */
static void barrier(VkCommandBuffer cmd, VkPipelineStageFlags src_stages, VkAccessFlags src_access,
                    VkPipelineStageFlags dst_stages, VkAccessFlags dst_access) {
    VkMemoryBarrier b = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = src_access,
        .dstAccessMask = dst_access,
    };
    vkCmdPipelineBarrier(cmd, src_stages, dst_stages, 0, 1, &b, 0, NULL, 0, NULL);
}

/* ------------------------------------------------------------------------------------------ */
/* The sort                                                                                   */

static bool run(App *a, uint32_t n) {
    const VkDeviceSize bytes = (VkDeviceSize)n * sizeof(uint32_t);

    /* 1. Points and codes on the CPU. */
    double t0 = now_s();
    Point *points = malloc((size_t)n * sizeof *points);
    uint32_t *codes = malloc((size_t)n * sizeof *codes);
    unsigned char *seen = calloc(n, 1);
    bool ok = false;
    if (!points || !codes || !seen) {
        fail("out of host memory");
        goto done;
    }
    make_points(points, codes, n);
    printf("points: %" PRIu32 " random points, 30-bit Morton codes (%.0f ms on the CPU)\n", n, (now_s() - t0) * 1e3);

    /* 2. Vulkan, then vkalgo on the same device. */
    if (!create_instance(a) || !pick_physical_device(a) || !create_device(a)) {
        goto done;
    }
    VkalgoExternalContextDesc ctx_desc = {
        .instance = a->instance,
        .physical_device = a->physical_device,
        .device = a->device,
        .queue_family_index = a->queue_family,
        .queue = a->queue, /* only vkalgo's blocking _host calls would submit to it */
        .get_instance_proc_addr = vkGetInstanceProcAddr, /* vkalgo uses our loader */
        .pipeline_cache = VK_NULL_HANDLE,                /* an engine passes its own cache */
        /* vkalgo names its objects with debug utils, and uses the optional features we enabled
         * (it cannot ask the device which ones were). */
        .flags = (a->debug_utils ? VKALGO_CONTEXT_DEBUG_UTILS : 0u) |
                 (a->int64_atomics ? VKALGO_CONTEXT_INT64_ATOMICS_ENABLED : 0u) |
                 (a->full_subgroups ? VKALGO_CONTEXT_FULL_SUBGROUPS_ENABLED : 0u),
        .timeout_ns = 0,
    };
    if (!VKALGO_CHECK(vkalgo_context_create_external(&ctx_desc, &a->ctx))) {
        goto done;
    }

    /* 3. The plan: u32 keys (the codes) with u32 values (the point indices), on bits [0, 30):
     * the two top bits are always zero. vkalgo sorts 8 bits per pass, so 30 bits take 4 passes
     * (the last on 6 bits), as 32 would: end_bit = 30 is right but saves no pass here (it would
     * with 24 bits or less). Each pass moves the data between keys/values and the alternate
     * buffers, so the result ends in one pair or the other: vkalgo_sort_record says which.
     * Fields left out of the initializers are zero (next = NULL: no extension structures). */
    const VkalgoSortDesc sort_desc = {
        .key_type = VKALGO_KEY_U32,
        .value_type = VKALGO_VALUE_U32,
        .begin_bit = 0,
        .end_bit = 30,
        .descending = 0,
        .path = VKALGO_SORT_PATH_AUTO,
        .max_count = n,
    };
    VkalgoMemoryRequirements req = {0}; /* an output struct: its `next` must be NULL too */
    if (!VKALGO_CHECK(vkalgo_sort_plan_create(a->ctx, &sort_desc, &a->plan)) ||
        !VKALGO_CHECK(vkalgo_sort_plan_memory_requirements(a->plan, &req))) {
        goto done;
    }

    /* 4. Buffers: device-local keys, values, alternates and scratch, with the usage flags the
     * plan asks for (storage + device address + transfer); each at offset 0, which satisfies
     * any alignment. Plus one host-visible staging buffer: codes then indices on the way up,
     * sorted codes then indices on the way down. (On devices whose device-local memory is
     * host-visible, as on integrated GPUs and lavapipe, staging could be skipped; an engine
     * with a discrete GPU needs it, so this program always uses it.) */
    const VkBufferUsageFlags usage = req.scratch.usage | req.keys_alt.usage | req.values_alt.usage |
                                     VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    if (!buffer_create(a, bytes, usage, false, "keys", &a->keys) ||
        !buffer_create(a, bytes, usage, false, "values", &a->values) ||
        !buffer_create(a, req.keys_alt.size, usage, false, "keys_alt", &a->keys_alt) ||
        !buffer_create(a, req.values_alt.size, usage, false, "values_alt", &a->values_alt) ||
        !buffer_create(a, req.scratch.size, usage, false, "scratch", &a->scratch) ||
        !buffer_create(a, 2 * bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, true,
                       "staging", &a->staging)) {
        goto done;
    }
    uint32_t *staged = a->staging.mapped;
    memcpy(staged, codes, (size_t)bytes);
    for (uint32_t i = 0; i < n; i++) {
        staged[(size_t)n + i] = i;
    }
    /* Host-coherent memory: vkQueueSubmit makes these writes visible to the device. */

    /* 5. One command buffer: upload, sort, download. */
    VkCommandBufferBeginInfo begin = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
        .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
    };
    if (!VK_CHECK(vkBeginCommandBuffer(a->cmd, &begin))) {
        goto done;
    }
    if (a->timestamps) {
        vkCmdResetQueryPool(a->cmd, a->timestamps, 0, 2);
    }
    VkBufferCopy up_keys = {.srcOffset = 0, .dstOffset = 0, .size = bytes};
    VkBufferCopy up_values = {.srcOffset = bytes, .dstOffset = 0, .size = bytes};
    vkCmdCopyBuffer(a->cmd, a->staging.buffer, a->keys.buffer, 1, &up_keys);
    vkCmdCopyBuffer(a->cmd, a->staging.buffer, a->values.buffer, 1, &up_values);
    /* vkalgo's contract before the sort: the writes to keys and values visible to compute
     * shader reads AND writes (the passes write them too); earlier uses of the alternates and
     * scratch complete before COMPUTE_SHADER and TRANSFER (vkalgo clears scratch with
     * vkCmdFillBuffer). Here the only earlier writes are the two copies; in an engine's frame
     * loop the same barrier also orders the previous frame's sort before this one. */
    barrier(a->cmd, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
            VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT,
            VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
            VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
    /* Timestamps after everything before (the upload) and after the sort's last pass. */
    if (a->timestamps) {
        vkCmdWriteTimestamp(a->cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, a->timestamps, 0);
    }
    uint32_t in_alternate = 0;
    VkalgoSortArgs args = {
        .keys = {a->keys.buffer, 0, bytes},
        .values = {a->values.buffer, 0, bytes},
        .keys_alt = {a->keys_alt.buffer, 0, req.keys_alt.size},
        .values_alt = {a->values_alt.buffer, 0, req.values_alt.size},
        .scratch = {a->scratch.buffer, 0, req.scratch.size},
        .count = n,
        .count_buffer = {VK_NULL_HANDLE, 0, 0}, /* a direct count */
        .result_in_alternate = &in_alternate,     /* where the sorted pair ends */
    };
    /* Recorded on the plan's context (the plan keeps it alive). */
    if (!VKALGO_CHECK(vkalgo_sort_record(a->plan, a->cmd, &args))) {
        goto done; /* nothing was recorded; the pool's destruction frees the command buffer */
    }
    if (a->timestamps) {
        vkCmdWriteTimestamp(a->cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, a->timestamps, 1);
    }
    /* After the sort the result is written by COMPUTE_SHADER: make it visible to the copy. */
    barrier(a->cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
            VK_ACCESS_TRANSFER_READ_BIT);
    const Buffer *sorted_keys = in_alternate ? &a->keys_alt : &a->keys;
    const Buffer *sorted_values = in_alternate ? &a->values_alt : &a->values;
    VkBufferCopy down_keys = {.srcOffset = 0, .dstOffset = 0, .size = bytes};
    VkBufferCopy down_values = {.srcOffset = 0, .dstOffset = bytes, .size = bytes};
    vkCmdCopyBuffer(a->cmd, sorted_keys->buffer, a->staging.buffer, 1, &down_keys);
    vkCmdCopyBuffer(a->cmd, sorted_values->buffer, a->staging.buffer, 1, &down_values);
    barrier(a->cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
            VK_ACCESS_HOST_READ_BIT);
    if (!VK_CHECK(vkEndCommandBuffer(a->cmd))) {
        goto done;
    }
    VkSubmitInfo submit = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
        .commandBufferCount = 1,
        .pCommandBuffers = &a->cmd,
    };
    t0 = now_s();
    if (!VK_CHECK(vkQueueSubmit(a->queue, 1, &submit, a->fence))) {
        goto done;
    }
    /* A bounded wait: a hang is reported, not waited out forever. */
    VkResult wait = vkWaitForFences(a->device, 1, &a->fence, VK_TRUE, 300ull * 1000 * 1000 * 1000);
    if (wait == VK_TIMEOUT) {
        a->gpu_may_be_busy = true;
        fail("the GPU did not finish within 300 s");
        goto done;
    }
    if (!vk_check(wait, "vkWaitForFences")) {
        goto done;
    }
    const double wall_ms = (now_s() - t0) * 1e3;
    double gpu_ms = -1.0;
    if (a->timestamps) {
        uint64_t ticks[2];
        if (!VK_CHECK(vkGetQueryPoolResults(a->device, a->timestamps, 0, 2, sizeof ticks, ticks, sizeof ticks[0],
                                            VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT))) {
            goto done;
        }
        const uint64_t mask = a->timestamp_bits >= 64 ? UINT64_MAX : (UINT64_C(1) << a->timestamp_bits) - 1;
        gpu_ms = (double)((ticks[1] - ticks[0]) & mask) * (double)a->props.limits.timestampPeriod * 1e-6;
    }

    /* 6. Verification on the CPU (the staging memory is host-coherent: no invalidate). */
    const uint32_t *got_codes = staged;
    const uint32_t *got_index = staged + n;
    uint64_t equal_pairs = 0;
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t idx = got_index[i];
        if (idx >= n || seen[idx]) {
            fprintf(stderr, "morton_sort: error: position %" PRIu32 " holds index %" PRIu32 ", %s\n", i, idx,
                    idx >= n ? "out of range" : "already seen (not a permutation)");
            goto done;
        }
        seen[idx] = 1;
        if (codes[idx] != got_codes[i]) {
            fprintf(stderr,
                    "morton_sort: error: position %" PRIu32 ": code 0x%08" PRIx32 ", but point %" PRIu32
                    " has code 0x%08" PRIx32 "\n",
                    i, got_codes[i], idx, codes[idx]);
            goto done;
        }
        if (i > 0 && got_codes[i] < got_codes[i - 1]) {
            fprintf(stderr, "morton_sort: error: codes decrease at position %" PRIu32 ": 0x%08" PRIx32 " after 0x%08" PRIx32 "\n",
                    i, got_codes[i], got_codes[i - 1]);
            goto done;
        }
        if (i > 0 && got_codes[i] == got_codes[i - 1]) {
            if (idx <= got_index[i - 1]) {
                fprintf(stderr,
                        "morton_sort: error: not stable: equal codes 0x%08" PRIx32 " at positions %" PRIu32
                        " and %" PRIu32 " hold indices %" PRIu32 " then %" PRIu32 "\n",
                        got_codes[i], i - 1, i, got_index[i - 1], idx);
                goto done;
            }
            equal_pairs++;
        }
    }

    printf("sort: %" PRIu32 " (code, index) pairs on bits [0, 30), result in the %s buffers\n", n,
           in_alternate ? "alternate" : "original");
    if (gpu_ms >= 0.0) {
        printf("GPU time of the sort: %.3f ms (%.1f M pairs/s); submit to fence: %.1f ms\n", gpu_ms,
               gpu_ms > 0.0 ? (double)n / (gpu_ms * 1e3) : 0.0, wall_ms);
    } else {
        printf("GPU time: no timestamps on this queue; submit to fence: %.1f ms\n", wall_ms);
    }
    printf("verified: codes non-decreasing, indices a permutation with matching codes, "
           "%" PRIu64 " adjacent equal codes in increasing index order (stable)\n",
           equal_pairs);
    if (g_validation_messages > 0) {
        fprintf(stderr, "morton_sort: error: %u validation messages\n", g_validation_messages);
        goto done;
    }
    ok = true;

done:
    free(points);
    free(codes);
    free(seen);
    return ok;
}

int main(int argc, char **argv) {
    uint32_t n = 1000000;
    if (argc > 2) {
        fprintf(stderr, "usage: %s [points]\n", argv[0]);
        return 2;
    }
    if (argc == 2) {
        char *end = NULL;
        unsigned long long v = strtoull(argv[1], &end, 10);
        if (argv[1][0] == '-' || end == argv[1] || *end != '\0' || v < 1 || v > UINT32_MAX) {
            fprintf(stderr, "usage: %s [points]   (points: 1 to %" PRIu32 ", got \"%s\")\n", argv[0], UINT32_MAX,
                    argv[1]);
            return 2;
        }
        n = (uint32_t)v;
    }
    App app;
    memset(&app, 0, sizeof app);
    bool ok = run(&app, n);
    app_destroy(&app);
    if (ok && g_validation_messages > 0) {
        fprintf(stderr, "morton_sort: error: %u validation messages during cleanup\n", g_validation_messages);
        ok = false;
    }
    printf("%s\n", ok ? "OK" : "FAILED");
    return ok ? 0 : 1;
}
