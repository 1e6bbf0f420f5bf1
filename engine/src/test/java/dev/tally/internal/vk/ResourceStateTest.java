package dev.tally.internal.vk;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** Two states are equal exactly when every field is: the barrier cache's reuse of last frame's barriers rests on it. */
class ResourceStateTest {
    private static final ResourceState BASE = new ResourceState(1, 2, 3, 4, 5, 6);

    @Test
    void equalFieldsAreEqualStatesWithOneHash() {
        ResourceState same = new ResourceState(1, 2, 3, 4, 5, 6);
        assertEquals(BASE, same);
        assertEquals(BASE.hashCode(), same.hashCode());
        assertNotEquals(BASE, null);
        assertNotEquals(BASE, "state");
    }

    @Test
    void anyFieldDifferingMakesTheStatesDiffer() {
        ResourceState[] others = {
                new ResourceState(9, 2, 3, 4, 5, 6), new ResourceState(1, 9, 3, 4, 5, 6), new ResourceState(1, 2, 9, 4, 5, 6),
                new ResourceState(1, 2, 3, 9, 5, 6), new ResourceState(1, 2, 3, 4, 9, 6), new ResourceState(1, 2, 3, 4, 5, 9)};
        for (int i = 0; i < others.length; i++) {
            assertNotEquals(BASE, others[i], "field " + i + " differs");
            assertNotEquals(others[i], BASE, "field " + i + " differs");
        }
    }
}
