package dev.tally.internal.shader;

import java.util.Map;
import java.util.TreeMap;

/** Specialization constants by constant_id; all 32-bit (int, uint, bool or float bits). */
public record SpecConstants(Map<Integer, Integer> values) {
    public SpecConstants {
        values = Map.copyOf(new TreeMap<>(values));
    }

    public static SpecConstants of(int... idValuePairs) {
        if (idValuePairs.length % 2 != 0) {
            throw new IllegalArgumentException("spec constants come as id, value pairs");
        }
        Map<Integer, Integer> m = new TreeMap<>();
        for (int i = 0; i < idValuePairs.length; i += 2) {
            m.put(idValuePairs[i], idValuePairs[i + 1]);
        }
        return new SpecConstants(m);
    }
}
