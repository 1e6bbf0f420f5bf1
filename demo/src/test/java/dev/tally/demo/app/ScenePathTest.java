package dev.tally.demo.app;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

class ScenePathTest {
    @Test
    void loopsWithoutAJumpAndLeavesTheTunnelOnce() {
        ScenePath.Camera start = ScenePath.at(0), end = ScenePath.at(ScenePath.LOOP_SECONDS - 1e-6);
        assertEquals(start.z(), end.z(), 1e-3);
        assertEquals(start.heading(), end.heading(), 1e-3);
        int crossings = 0;
        double maxStep = 0;
        ScenePath.Camera prev = start;
        for (int i = 1; i <= 2000; i++) {
            ScenePath.Camera c = ScenePath.at(i * ScenePath.LOOP_SECONDS / 2000);
            if ((prev.z() < ScenePath.MOUTH_Z) != (c.z() < ScenePath.MOUTH_Z)) {
                crossings++;
            }
            maxStep = Math.max(maxStep, Math.abs(c.z() - prev.z()) + Math.abs(c.heading() - prev.heading()));
            prev = c;
        }
        assertEquals(2, crossings, "out through the mouth and back in");
        assertTrue(maxStep < 0.2, "smooth path, largest step " + maxStep);
        assertTrue(ScenePath.EXIT_SECONDS > 2 && ScenePath.EXIT_SECONDS < 6, "exit at " + ScenePath.EXIT_SECONDS);
        assertEquals(ScenePath.DEEP_Z, start.z(), 1e-9, "starts at the dark end");
    }
}
