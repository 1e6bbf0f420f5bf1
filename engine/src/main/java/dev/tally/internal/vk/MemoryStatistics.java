package dev.tally.internal.vk;

import org.lwjgl.system.MemoryStack;
import org.lwjgl.util.vma.VmaBudget;
import org.lwjgl.util.vma.VmaTotalStatistics;
import org.lwjgl.vulkan.VkPhysicalDevice;
import org.lwjgl.vulkan.VkPhysicalDeviceMemoryProperties;

import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.util.vma.Vma.vmaCalculateStatistics;
import static org.lwjgl.util.vma.Vma.vmaGetHeapBudgets;
import static org.lwjgl.vulkan.VK10.*;

/** What VMA knows of the memory in use: live allocations (leaks at shutdown) and the device-local budget (up-front size checks). */
public final class MemoryStatistics {
    private final VkPhysicalDevice physicalDevice;
    private final long allocator;

    MemoryStatistics(VkPhysicalDevice physicalDevice, long allocator) {
        this.physicalDevice = physicalDevice;
        this.allocator = allocator;
    }

    /** Live VMA allocations and their bytes. */
    public long[] liveAllocations() {
        try (MemoryStack stack = stackPush()) {
            VmaTotalStatistics stats = VmaTotalStatistics.calloc(stack);
            vmaCalculateStatistics(allocator, stats);
            return new long[]{stats.total().statistics().allocationCount(), stats.total().statistics().allocationBytes()};
        }
    }

    /** The budget of the largest device-local heap (where a large buffer would go). */
    public MemoryBudget deviceMemoryBudget() {
        try (MemoryStack stack = stackPush()) {
            VkPhysicalDeviceMemoryProperties memory = VkPhysicalDeviceMemoryProperties.malloc(stack);
            vkGetPhysicalDeviceMemoryProperties(physicalDevice, memory);
            VmaBudget.Buffer budgets = VmaBudget.calloc(VK_MAX_MEMORY_HEAPS, stack);
            vmaGetHeapBudgets(allocator, budgets);
            int best = -1;
            for (int h = 0; h < memory.memoryHeapCount(); h++) {
                boolean local = (memory.memoryHeaps(h).flags() & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) != 0;
                if (local && (best < 0 || memory.memoryHeaps(h).size() > memory.memoryHeaps(best).size())) {
                    best = h;
                }
            }
            if (best < 0) {
                best = 0;   // no heap flagged device-local (unusual): the first heap is what buffers get
            }
            return new MemoryBudget(best, memory.memoryHeaps(best).size(), budgets.get(best).budget(), budgets.get(best).usage());
        }
    }
}
