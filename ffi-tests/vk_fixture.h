/* The Vulkan fixture of the C record-layer tests (test_c.c, test_hash.c): the test's own
 * instance (with the validation layer and synchronization validation when present, messages
 * counted in g_validation_messages), device, queue, command buffer and host-visible buffers,
 * the barriers around vkalgo's recorded passes, and a bounded submit-and-wait. The includer defines VKALGO_TEST_APP_NAME
 * and includes check.h, vkalgo.h and vulkan.h first. */
#ifndef VKALGO_VK_FIXTURE_H
#define VKALGO_VK_FIXTURE_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned g_validation_messages;

static VkDeviceSize align_up(VkDeviceSize x, VkDeviceSize a) {
    return a <= 1 ? x : (x + a - 1) / a * a;
}

typedef struct Gpu {
    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger;
    PFN_vkDestroyDebugUtilsMessengerEXT destroy_messenger;
    bool validation;
    bool debug_utils;
    VkPhysicalDevice physical_device;
    VkPhysicalDeviceMemoryProperties memory;
    uint32_t queue_family;
    VkDevice device;
    VkQueue queue;
    VkCommandPool pool;
    VkCommandBuffer cmd;
    VkFence fence;
    bool int64_atomics;
    bool full_subgroups;
} Gpu;

typedef struct Buffer {
    VkBuffer buffer;
    VkDeviceMemory memory;
    VkDeviceSize size;
    uint32_t *words; /* persistently mapped */
} Buffer;

static VKAPI_ATTR VkBool32 VKAPI_CALL messenger_callback(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                         VkDebugUtilsMessageTypeFlagsEXT types,
                                                         const VkDebugUtilsMessengerCallbackDataEXT *data,
                                                         void *user) {
    (void)user;
    const char *text = data && data->pMessage ? data->pMessage : "(no message)";
    bool bad = (types & VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT) &&
               (severity & (VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT));
    if (bad) {
        g_validation_messages++;
        g_failures++;
        printf("  FAIL  validation: %s\n", text);
    } else {
        printf("  info  vulkan: %s\n", text);
    }
    fflush(stdout);
    return VK_FALSE;
}

static bool has_layer(const char *name) {
    uint32_t n = 0;
    if (vkEnumerateInstanceLayerProperties(&n, NULL) != VK_SUCCESS || n == 0) {
        return false;
    }
    VkLayerProperties *props = xmalloc(n * sizeof *props);
    bool found = false;
    if (vkEnumerateInstanceLayerProperties(&n, props) == VK_SUCCESS) {
        for (uint32_t i = 0; i < n; i++) {
            found = found || strcmp(props[i].layerName, name) == 0;
        }
    }
    free(props);
    return found;
}

static bool has_instance_extension(const char *layer, const char *name) {
    uint32_t n = 0;
    if (vkEnumerateInstanceExtensionProperties(layer, &n, NULL) != VK_SUCCESS || n == 0) {
        return false;
    }
    VkExtensionProperties *props = xmalloc(n * sizeof *props);
    bool found = false;
    if (vkEnumerateInstanceExtensionProperties(layer, &n, props) == VK_SUCCESS) {
        for (uint32_t i = 0; i < n; i++) {
            found = found || strcmp(props[i].extensionName, name) == 0;
        }
    }
    free(props);
    return found;
}

static bool vk_ok(VkResult r, const char *what) {
    return check(r == VK_SUCCESS, "%s (VkResult %d)", what, (int)r);
}

static bool gpu_create(Gpu *g) {
    memset(g, 0, sizeof *g);
    const char *no_validation = getenv("VKALGO_TEST_NO_VALIDATION");
    const char *layer = "VK_LAYER_KHRONOS_validation";
    g->validation = !(no_validation && strcmp(no_validation, "1") == 0) && has_layer(layer);
    g->debug_utils = has_instance_extension(NULL, VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    if (g->validation && !g->debug_utils) {
        g->validation = false;
    }
    bool validation_features = g->validation && has_instance_extension(layer, VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
    printf("  info  own instance: validation layer %s%s\n", g->validation ? "on" : "off",
           validation_features ? " + synchronization validation" : "");

    const char *extensions[2];
    uint32_t extension_count = 0;
    if (g->debug_utils) {
        extensions[extension_count++] = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    }
    if (validation_features) {
        extensions[extension_count++] = VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME;
    }
    VkApplicationInfo app = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
        .pApplicationName = VKALGO_TEST_APP_NAME,
        .apiVersion = VK_API_VERSION_1_3,
    };
    VkDebugUtilsMessengerCreateInfoEXT messenger_info = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
        .pfnUserCallback = messenger_callback,
    };
    VkValidationFeatureEnableEXT enables[] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
    VkValidationFeaturesEXT features = {
        .sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT,
        .pNext = &messenger_info,
        .enabledValidationFeatureCount = 1,
        .pEnabledValidationFeatures = enables,
    };
    VkInstanceCreateInfo instance_info = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
        .pNext = g->validation ? (validation_features ? (const void *)&features : (const void *)&messenger_info) : NULL,
        .pApplicationInfo = &app,
        .enabledLayerCount = g->validation ? 1u : 0u,
        .ppEnabledLayerNames = &layer,
        .enabledExtensionCount = extension_count,
        .ppEnabledExtensionNames = extensions,
    };
    if (!vk_ok(vkCreateInstance(&instance_info, NULL, &g->instance), "vkCreateInstance (apiVersion 1.3)")) {
        return false;
    }
    if (g->validation) {
        PFN_vkCreateDebugUtilsMessengerEXT create =
            (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(g->instance, "vkCreateDebugUtilsMessengerEXT");
        g->destroy_messenger =
            (PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(g->instance, "vkDestroyDebugUtilsMessengerEXT");
        if (!create || !g->destroy_messenger ||
            !vk_ok(create(g->instance, &messenger_info, NULL, &g->messenger), "vkCreateDebugUtilsMessengerEXT")) {
            return false;
        }
    }

    /* The first physical device with Vulkan 1.2+ and a compute queue. */
    uint32_t count = 0;
    vkEnumeratePhysicalDevices(g->instance, &count, NULL);
    VkPhysicalDevice *devices = xmalloc((count ? count : 1) * sizeof *devices);
    vkEnumeratePhysicalDevices(g->instance, &count, devices);
    VkPhysicalDeviceProperties props;
    bool found = false;
    for (uint32_t i = 0; i < count && !found; i++) {
        vkGetPhysicalDeviceProperties(devices[i], &props);
        if (props.apiVersion < VK_API_VERSION_1_2) {
            continue;
        }
        uint32_t nf = 0;
        vkGetPhysicalDeviceQueueFamilyProperties(devices[i], &nf, NULL);
        VkQueueFamilyProperties *families = xmalloc((nf ? nf : 1) * sizeof *families);
        vkGetPhysicalDeviceQueueFamilyProperties(devices[i], &nf, families);
        for (uint32_t f = 0; f < nf && !found; f++) {
            if (families[f].queueFlags & VK_QUEUE_COMPUTE_BIT) {
                g->physical_device = devices[i];
                g->queue_family = f;
                found = true;
            }
        }
        free(families);
    }
    free(devices);
    if (!check(found, "a Vulkan 1.2+ device with a compute queue among %" PRIu32, count)) {
        return false;
    }
    vkGetPhysicalDeviceProperties(g->physical_device, &props);
    bool core13 = props.apiVersion >= VK_API_VERSION_1_3;
    printf("  info  own device: %s (Vulkan %u.%u), queue family %" PRIu32 "\n", props.deviceName,
           VK_API_VERSION_MAJOR(props.apiVersion), VK_API_VERSION_MINOR(props.apiVersion), g->queue_family);
    vkGetPhysicalDeviceMemoryProperties(g->physical_device, &g->memory);

    /* Query, then enable exactly what vkalgo needs. */
    VkPhysicalDeviceVulkan13Features q13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    VkPhysicalDeviceVulkan12Features q12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
        .pNext = core13 ? &q13 : NULL,
    };
    VkPhysicalDeviceFeatures2 q = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &q12};
    vkGetPhysicalDeviceFeatures2(g->physical_device, &q);
    if (!check(q12.bufferDeviceAddress && q.features.shaderInt64, "device supports bufferDeviceAddress and shaderInt64")) {
        return false;
    }
    g->int64_atomics = q12.shaderBufferInt64Atomics == VK_TRUE;
    g->full_subgroups = core13 && q13.subgroupSizeControl && q13.computeFullSubgroups;
    printf("  info  shaderBufferInt64Atomics %s, subgroupSizeControl+computeFullSubgroups %s\n",
           g->int64_atomics ? "supported (enabled)" : "unsupported",
           g->full_subgroups ? "supported (enabled)" : "unsupported");

    VkPhysicalDeviceVulkan13Features e13 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
        .subgroupSizeControl = g->full_subgroups ? VK_TRUE : VK_FALSE,
        .computeFullSubgroups = g->full_subgroups ? VK_TRUE : VK_FALSE,
    };
    VkPhysicalDeviceVulkan12Features e12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
        .pNext = g->full_subgroups ? &e13 : NULL,
        .bufferDeviceAddress = VK_TRUE,
        .shaderBufferInt64Atomics = g->int64_atomics ? VK_TRUE : VK_FALSE,
    };
    VkPhysicalDeviceFeatures2 enabled = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &e12};
    enabled.features.shaderInt64 = VK_TRUE;
    float priority = 1.0f;
    VkDeviceQueueCreateInfo queue_info = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
        .queueFamilyIndex = g->queue_family,
        .queueCount = 1,
        .pQueuePriorities = &priority,
    };
    VkDeviceCreateInfo device_info = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .pNext = &enabled,
        .queueCreateInfoCount = 1,
        .pQueueCreateInfos = &queue_info,
    };
    if (!vk_ok(vkCreateDevice(g->physical_device, &device_info, NULL, &g->device), "vkCreateDevice")) {
        return false;
    }
    vkGetDeviceQueue(g->device, g->queue_family, 0, &g->queue);
    VkCommandPoolCreateInfo pool_info = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
        .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
        .queueFamilyIndex = g->queue_family,
    };
    if (!vk_ok(vkCreateCommandPool(g->device, &pool_info, NULL, &g->pool), "vkCreateCommandPool")) {
        return false;
    }
    VkCommandBufferAllocateInfo cmd_info = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = g->pool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1,
    };
    if (!vk_ok(vkAllocateCommandBuffers(g->device, &cmd_info, &g->cmd), "vkAllocateCommandBuffers")) {
        return false;
    }
    VkFenceCreateInfo fence_info = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    return vk_ok(vkCreateFence(g->device, &fence_info, NULL, &g->fence), "vkCreateFence");
}

static void gpu_destroy(Gpu *g) {
    if (g->device) {
        vkDeviceWaitIdle(g->device);
        if (g->fence) {
            vkDestroyFence(g->device, g->fence, NULL);
        }
        if (g->pool) {
            vkDestroyCommandPool(g->device, g->pool, NULL);
        }
        vkDestroyDevice(g->device, NULL);
    }
    if (g->messenger) {
        g->destroy_messenger(g->instance, g->messenger, NULL);
    }
    if (g->instance) {
        vkDestroyInstance(g->instance, NULL);
    }
    memset(g, 0, sizeof *g);
}

static const VkBufferUsageFlags BUFFER_USAGE = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                               VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT |
                                               VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                               VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT;

/* A host-visible, host-coherent buffer with device-address memory, mapped. */
static bool buffer_create(Gpu *g, VkDeviceSize size, const char *name, Buffer *b) {
    memset(b, 0, sizeof *b);
    size = align_up(size, 4);
    VkBufferCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = size,
        .usage = BUFFER_USAGE,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    if (vkCreateBuffer(g->device, &info, NULL, &b->buffer) != VK_SUCCESS) {
        return check(false, "vkCreateBuffer %s (%" PRIu64 " bytes)", name, (uint64_t)size);
    }
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(g->device, b->buffer, &req);
    const VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    uint32_t type = UINT32_MAX;
    for (uint32_t i = 0; i < g->memory.memoryTypeCount && type == UINT32_MAX; i++) {
        if ((req.memoryTypeBits & (1u << i)) && (g->memory.memoryTypes[i].propertyFlags & want) == want) {
            type = i;
        }
    }
    if (type == UINT32_MAX) {
        return check(false, "%s: no HOST_VISIBLE|HOST_COHERENT memory type in bits 0x%" PRIx32, name, req.memoryTypeBits);
    }
    VkMemoryAllocateFlagsInfo flags = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
        .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT,
    };
    VkMemoryAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .pNext = &flags,
        .allocationSize = req.size,
        .memoryTypeIndex = type,
    };
    void *map = NULL;
    if (vkAllocateMemory(g->device, &alloc, NULL, &b->memory) != VK_SUCCESS ||
        vkBindBufferMemory(g->device, b->buffer, b->memory, 0) != VK_SUCCESS ||
        vkMapMemory(g->device, b->memory, 0, VK_WHOLE_SIZE, 0, &map) != VK_SUCCESS) {
        return check(false, "allocate/bind/map %s (%" PRIu64 " bytes)", name, (uint64_t)size);
    }
    b->size = size;
    b->words = map;
    return true;
}

static void buffer_destroy(Gpu *g, Buffer *b) {
    if (b->memory) {
        vkFreeMemory(g->device, b->memory, NULL); /* unmaps implicitly */
    }
    if (b->buffer) {
        vkDestroyBuffer(g->device, b->buffer, NULL);
    }
    memset(b, 0, sizeof *b);
}

static bool cmd_begin(Gpu *g) {
    VkCommandBufferBeginInfo begin = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
        .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
    };
    VkResult r = vkBeginCommandBuffer(g->cmd, &begin);
    return r == VK_SUCCESS || check(false, "vkBeginCommandBuffer (VkResult %d)", (int)r);
}

static void memory_barrier(Gpu *g, VkPipelineStageFlags src_stage, VkAccessFlags src_access,
                           VkPipelineStageFlags dst_stage, VkAccessFlags dst_access) {
    VkMemoryBarrier barrier = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = src_access,
        .dstAccessMask = dst_access,
    };
    vkCmdPipelineBarrier(g->cmd, src_stage, dst_stage, 0, 1, &barrier, 0, NULL, 0, NULL);
}

/* Before a scan: host writes (input, count, the output's sentinels) and every earlier GPU use of
 * the buffers (previous submissions) are complete and visible to vkalgo's compute and transfer
 * (scratch clear) commands. */
static void barrier_before(Gpu *g) {
    memory_barrier(g, VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                   VK_ACCESS_HOST_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                   VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                   VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
}

/* After a vkalgo pass: its output (COMPUTE_SHADER, SHADER_WRITE) is visible to host reads. */
static void barrier_after(Gpu *g) {
    memory_barrier(g, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                   VK_ACCESS_HOST_READ_BIT);
}

/* Ends, submits and waits (60 s at most: a timeout is a failure). */
static bool cmd_submit_wait(Gpu *g, const char *what) {
    VkResult r = vkEndCommandBuffer(g->cmd);
    if (r != VK_SUCCESS) {
        return check(false, "%s: vkEndCommandBuffer (VkResult %d)", what, (int)r);
    }
    VkSubmitInfo submit = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
        .commandBufferCount = 1,
        .pCommandBuffers = &g->cmd,
    };
    r = vkQueueSubmit(g->queue, 1, &submit, g->fence);
    if (r != VK_SUCCESS) {
        return check(false, "%s: vkQueueSubmit (VkResult %d)", what, (int)r);
    }
    r = vkWaitForFences(g->device, 1, &g->fence, VK_TRUE, 60ull * 1000 * 1000 * 1000);
    if (r == VK_TIMEOUT) {
        fprintf(stderr, "%s: the GPU did not finish within 60 s\n", what);
        check(false, "%s: fence wait timed out after 60 s", what);
        exit(1); /* the device may still use the buffers: do not free them under it */
    }
    if (r != VK_SUCCESS) {
        return check(false, "%s: vkWaitForFences (VkResult %d)", what, (int)r);
    }
    vkResetFences(g->device, 1, &g->fence);
    return true;
}

static VkalgoBufferRange range_of(const Buffer *b, VkDeviceSize offset, VkDeviceSize size) {
    VkalgoBufferRange r = {b->buffer, offset, size};
    return r;
}

#endif
