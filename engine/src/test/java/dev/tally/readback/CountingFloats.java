package dev.tally.readback;

import dev.tally.Tally;
import dev.tally.vk.GpuBuffer;
import dev.tally.vk.MemoryKind;
import org.lwjgl.system.MemoryUtil;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** A 64-byte upload buffer holding the floats 1..16, whose captured words say which floats a region read. */
final class CountingFloats {
    private CountingFloats() {
    }

    static GpuBuffer create(Tally tally, int usage) {
        GpuBuffer values = tally.createBuffer("values", 64, usage, MemoryKind.UPLOAD);
        ByteBuffer data = MemoryUtil.memAlloc(64).order(ByteOrder.LITTLE_ENDIAN);
        try {
            for (int i = 0; i < 16; i++) {
                data.putFloat(4 * i, 1 + i);
            }
            values.write(data, 0);
        } finally {
            MemoryUtil.memFree(data);
        }
        return values;
    }
}
