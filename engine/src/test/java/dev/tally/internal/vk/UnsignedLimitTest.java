package dev.tally.internal.vk;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Vulkan's uint32 limits read as ints: one a driver reports as 0xFFFFFFFF (no limit) is Integer.MAX_VALUE, not -1. */
class UnsignedLimitTest {
    @Test
    void aLimitPastIntegerMaxValueReadsAsIntegerMaxValue() {
        assertEquals(65535, PhysicalDevices.intLimit(65535));
        assertEquals(Integer.MAX_VALUE, PhysicalDevices.intLimit(Integer.MAX_VALUE));
        assertEquals(Integer.MAX_VALUE, PhysicalDevices.intLimit(0x8000_0000));
        assertEquals(Integer.MAX_VALUE, PhysicalDevices.intLimit(0xFFFF_FFFF));
    }
}
