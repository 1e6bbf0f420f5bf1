package dev.tally.internal.vk;

import java.util.concurrent.atomic.AtomicLong;

/** Serials for Vulkan objects (caches key on them, never on handles) and the count of objects created: flat in a steady frame loop. */
public final class ObjectCounters {
    private final AtomicLong serials = new AtomicLong();
    private final AtomicLong otherObjects = new AtomicLong();

    /** A number never handed out twice by this context: Vulkan reuses handles after destruction, so caches key on serials. */
    public long nextSerial() {
        return serials.incrementAndGet();
    }

    /** Pipelines and descriptor sets report their creation here (buffers and images count through their serials). */
    public void countObject() {
        otherObjects.incrementAndGet();
    }

    /** Vulkan objects created through Tally so far. */
    public long objectsCreated() {
        return serials.get() + otherObjects.get();
    }
}
