package dev.tally.internal.graph;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The frame's table of declared GPU objects: each found with its resource, through growth and across frames. No GPU. */
class DeclaredObjectsTest {
    @Test
    void eachObjectIsFoundWithItsResourceUntilTheFrameEnds() {
        DeclaredObjects table = new DeclaredObjects();
        Object[] objects = new Object[500];
        for (int frame = 0; frame < 3; frame++) {
            int n = frame == 1 ? 7 : objects.length;   // a small frame between two that grow the table
            for (int i = 0; i < n; i++) {
                if (objects[i] == null) {
                    objects[i] = new Object();
                }
                assertEquals(-1, table.resourceOf(objects[i]), "frame " + frame + ": object " + i + " not yet declared");
                table.declare(objects[i], 1000 * frame + i);
            }
            for (int i = 0; i < objects.length; i++) {
                assertEquals(i < n ? 1000 * frame + i : -1, table.resourceOf(objects[i]), "frame " + frame + ": object " + i);
            }
            assertEquals(-1, table.resourceOf(new Object()), "an object never declared");
            table.reset();
        }
    }
}
