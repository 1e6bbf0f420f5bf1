package dev.tally.internal.vk;

/**
 * Device-local memory as VMA sees it for this process: the largest device-local heap, its size, its
 * budget (what the process may use in all, from VK_EXT_memory_budget or an estimate) and the bytes used now.
 */
public record MemoryBudget(int heap, long heapSize, long budget, long usage) {
    /** Bytes still free within the budget. */
    public long available() {
        return Math.max(0, budget - usage);
    }

    /** "U MiB used of a B MiB budget on a H MiB heap", for messages. */
    public String describe() {
        return (usage >> 20) + " MiB used of a " + (budget >> 20) + " MiB budget on a " + (heapSize >> 20) + " MiB heap";
    }
}
