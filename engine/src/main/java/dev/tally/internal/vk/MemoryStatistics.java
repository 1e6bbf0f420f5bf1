package dev.tally.internal.vk;

import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.util.vma.VmaBudget;
import org.lwjgl.util.vma.VmaTotalStatistics;
import org.lwjgl.vulkan.VkPhysicalDevice;
import org.lwjgl.vulkan.VkPhysicalDeviceMemoryProperties;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.util.vma.Vma.nvmaFreeStatsString;
import static org.lwjgl.util.vma.Vma.vmaBuildStatsString;
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

    /**
     * The names of the live allocations (Tally names each at creation: a buffer's or image's name, "transients"), in VMA's
     * order, from its detailed statistics; "unnamed" for one made by someone else on the same allocator. For the report
     * of what is still live at close, not for a frame: it builds VMA's whole JSON map.
     */
    public List<String> liveAllocationNames() {
        String json;
        try (MemoryStack stack = stackPush()) {
            PointerBuffer p = stack.mallocPointer(1);
            vmaBuildStatsString(allocator, p, true);
            try {
                json = MemoryUtil.memUTF8(p.get(0));
            } finally {
                nvmaFreeStatsString(allocator, p.get(0));
            }
        }
        return allocationNames(json);
    }

    /** Each allocation's name in a VMA detailed map (its entry's {@code "Name"}), "unnamed" where it has none. */
    static List<String> allocationNames(String json) {
        List<String> names = new ArrayList<>();
        Matcher entry = ALLOCATION.matcher(json);
        while (entry.find()) {
            Matcher name = NAME.matcher(entry.group(1));
            names.add(name.find() ? name.group(1).replace("\\\"", "\"").replace("\\\\", "\\") : "unnamed");
        }
        return names;
    }

    /** An allocation's entry in VMA's detailed map: its type (not FREE, a gap), then its other fields up to the entry's end. */
    private static final Pattern ALLOCATION = Pattern.compile("\"Type\": \"(?!FREE\")[A-Z_]+\"([^{}]*)");
    /** A name among an entry's fields, a JSON string (quotes and backslashes escaped). */
    private static final Pattern NAME = Pattern.compile("\"Name\": \"((?:[^\"\\\\]|\\\\.)*)\"");

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
