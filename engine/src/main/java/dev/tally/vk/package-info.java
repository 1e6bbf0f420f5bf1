/**
 * The Vulkan boundary: the buffers and images Tally tracks ({@link dev.tally.vk.GpuBuffer},
 * {@link dev.tally.vk.GpuImage}), what a host device must enable ({@link dev.tally.vk.Requirements},
 * {@link dev.tally.vk.HostFeatures}) and Vulkan failures ({@link dev.tally.vk.VulkanException}).
 */
package dev.tally.vk;
