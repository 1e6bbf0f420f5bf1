package dev.tally.internal.shader;

import dev.tally.shader.KernelBindings;
import dev.tally.vk.GpuBuffer;
import dev.tally.vk.GpuImage;

import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.internal.vk.TrackedImage;

import java.util.Arrays;

/**
 * What a dispatch or draw binds to bindings 0..n-1, written in place into primitive arrays: a pass owns one
 * and refills it each frame ({@code clear().buffer(...).image(...)}), so binding allocates nothing. Entries
 * are keyed by the resource's serial (Vulkan handles are reused), as {@link DescriptorSets.Binding}'s
 * records are; {@link DescriptorSets} keeps a {@link #copy} for each set it makes.
 */
public final class Bindings implements KernelBindings {
    static final byte RANGE = 0;
    static final byte STORAGE_IMAGE = 1;
    static final byte SAMPLED = 2;

    private byte[] kind;
    private long[] serial;
    private long[] handle;   // buffer or image view
    private long[] offset;   // buffer offset, or the sampler
    private long[] size;
    private int count;

    public Bindings() {
        this(4);
    }

    public Bindings(int capacity) {
        kind = new byte[capacity];
        serial = new long[capacity];
        handle = new long[capacity];
        offset = new long[capacity];
        size = new long[capacity];
    }

    /** Empties the list for the next dispatch; returns this. */
    @Override
    public Bindings clear() {
        count = 0;
        return this;
    }

    /** Appends a range of a storage buffer, in bytes. */
    @Override
    public Bindings buffer(GpuBuffer b, long byteOffset, long byteSize) {
        return add(RANGE, TrackedBuffer.of(b).serial(), b.handle(), byteOffset, byteSize);
    }

    /** Appends a storage image, accessed in GENERAL layout. */
    @Override
    public Bindings storageImage(GpuImage image) {
        return add(STORAGE_IMAGE, TrackedImage.of(image).serial(), image.view(), 0, 0);
    }

    /** Appends a sampled image with its sampler, read in SHADER_READ_ONLY_OPTIMAL layout. */
    @Override
    public Bindings sampled(GpuImage image, long sampler) {
        return add(SAMPLED, TrackedImage.of(image).serial(), image.view(), sampler, 0);
    }

    Bindings add(byte k, long s, long h, long o, long sz) {
        if (count == kind.length) {
            int n = Math.max(4, 2 * count);
            kind = Arrays.copyOf(kind, n);
            serial = Arrays.copyOf(serial, n);
            handle = Arrays.copyOf(handle, n);
            offset = Arrays.copyOf(offset, n);
            size = Arrays.copyOf(size, n);
        }
        kind[count] = k;
        serial[count] = s;
        handle[count] = h;
        offset[count] = o;
        size[count] = sz;
        count++;
        return this;
    }

    @Override
    public int size() {
        return count;
    }

    byte kind(int i) { return kind[i]; }

    /** The entry kind a binding of {@code type} takes. */
    static byte kindOf(dev.tally.shader.BindingType type) {
        return switch (type) {
            case STORAGE_BUFFER -> RANGE;
            case STORAGE_IMAGE -> STORAGE_IMAGE;
            case SAMPLED_IMAGE -> SAMPLED;
        };
    }
    long handle(int i) { return handle[i]; }

    /** Entry {@code i}'s buffer offset in bytes (a sampled image's sampler). */
    public long offset(int i) {
        return offset[i];
    }

    long byteSize(int i) { return size[i]; }

    /** An exact copy, sized to fit: the key a cached set is kept under. */
    Bindings copy() {
        Bindings c = new Bindings(Math.max(1, count));
        for (int i = 0; i < count; i++) {
            c.add(kind[i], serial[i], handle[i], offset[i], size[i]);
        }
        return c;
    }

    boolean sameAs(Bindings o) {
        if (o.count != count) {
            return false;
        }
        for (int i = 0; i < count; i++) {
            if (kind[i] != o.kind[i] || serial[i] != o.serial[i] || handle[i] != o.handle[i] || offset[i] != o.offset[i] || size[i] != o.size[i]) {
                return false;
            }
        }
        return true;
    }

    int contentHash() {
        int h = 1;
        for (int i = 0; i < count; i++) {
            h = 31 * h + kind[i];
            h = 31 * h + Long.hashCode(serial[i]);
            h = 31 * h + Long.hashCode(handle[i]);
            h = 31 * h + Long.hashCode(offset[i]);
            h = 31 * h + Long.hashCode(size[i]);
        }
        return h;
    }
}
