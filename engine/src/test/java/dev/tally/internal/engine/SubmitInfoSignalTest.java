package dev.tally.internal.engine;

import org.junit.jupiter.api.Test;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkProtectedSubmitInfo;
import org.lwjgl.vulkan.VkSubmitInfo;
import org.lwjgl.vulkan.VkTimelineSemaphoreSubmitInfo;

import static org.junit.jupiter.api.Assertions.*;
import static org.lwjgl.system.MemoryStack.stackPush;

/** Tally's signal in a host's VkSubmitInfo: the host's own signals, waits and pNext chain stay as they were. */
class SubmitInfoSignalTest {
    private static final long TIMELINE = 0x1234;

    @Test
    void withoutATimelineInfoOneIsChainedInFrontOfTheHostsChain() {
        try (MemoryStack stack = stackPush()) {
            VkProtectedSubmitInfo other = VkProtectedSubmitInfo.calloc(stack).sType$Default();
            VkSubmitInfo submit = VkSubmitInfo.calloc(stack).sType$Default().pNext(other.address())
                    .pSignalSemaphores(stack.longs(7));   // the host's binary render-finished semaphore
            SubmitInfoSignal.append(submit, TIMELINE, 42, stack);
            assertEquals(2, submit.signalSemaphoreCount());
            assertEquals(7, submit.pSignalSemaphores().get(0));
            assertEquals(TIMELINE, submit.pSignalSemaphores().get(1));
            VkTimelineSemaphoreSubmitInfo timeline = VkTimelineSemaphoreSubmitInfo.create(submit.pNext());
            assertEquals(org.lwjgl.vulkan.VK12.VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO, timeline.sType());
            assertEquals(2, timeline.signalSemaphoreValueCount());
            assertEquals(0, timeline.pSignalSemaphoreValues().get(0), "the binary semaphore's value is ignored");
            assertEquals(42, timeline.pSignalSemaphoreValues().get(1));
            assertEquals(0, timeline.waitSemaphoreValueCount());
            assertEquals(other.address(), timeline.pNext(), "the host's chain follows");
        }
    }

    @Test
    void theHostsOwnTimelineInfoIsExtendedKeepingItsValues() {
        try (MemoryStack stack = stackPush()) {
            VkTimelineSemaphoreSubmitInfo hosts = VkTimelineSemaphoreSubmitInfo.calloc(stack).sType$Default()
                    .waitSemaphoreValueCount(1).pWaitSemaphoreValues(stack.longs(3))
                    .signalSemaphoreValueCount(1).pSignalSemaphoreValues(stack.longs(9));
            VkSubmitInfo submit = VkSubmitInfo.calloc(stack).sType$Default().pNext(hosts.address()).pSignalSemaphores(stack.longs(8));
            SubmitInfoSignal.append(submit, TIMELINE, 43, stack);
            assertEquals(hosts.address(), submit.pNext(), "no second timeline info");
            assertEquals(2, hosts.signalSemaphoreValueCount());
            assertEquals(9, hosts.pSignalSemaphoreValues().get(0));
            assertEquals(43, hosts.pSignalSemaphoreValues().get(1));
            assertEquals(3, hosts.pWaitSemaphoreValues().get(0), "the host's waits untouched");
            assertEquals(TIMELINE, submit.pSignalSemaphores().get(1));
        }
    }

    @Test
    void aTimelineInfoWhoseValuesDoNotMatchTheSemaphoresIsRefusedInOneLine() {
        try (MemoryStack stack = stackPush()) {
            VkTimelineSemaphoreSubmitInfo hosts = VkTimelineSemaphoreSubmitInfo.calloc(stack).sType$Default()
                    .signalSemaphoreValueCount(2).pSignalSemaphoreValues(stack.longs(1, 2));
            VkSubmitInfo submit = VkSubmitInfo.calloc(stack).sType$Default().pNext(hosts.address()).pSignalSemaphores(stack.longs(8));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SubmitInfoSignal.append(submit, TIMELINE, 1, stack));
            assertEquals("frame.signal(VkSubmitInfo): the chained VkTimelineSemaphoreSubmitInfo has 2 signal values for 1 signal semaphores;"
                    + " Vulkan needs 0 or one per semaphore", e.getMessage());
            assertEquals(1, submit.signalSemaphoreCount(), "nothing half-written");
        }
    }
}
