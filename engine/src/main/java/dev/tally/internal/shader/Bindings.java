package dev.tally.internal.shader;

import dev.tally.shader.KernelBindings;
import dev.tally.vk.GpuBuffer;
import dev.tally.vk.GpuImage;

import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.internal.vk.TrackedImage;

import java.util.Arrays;

/**
 * What a dispatch or draw binds to bindings 0..n-1, written in place into one array of longs (five an entry: its
 * kind, the resource's serial, the handle, offset and size), so that a lookup's compare and hash read one array: a
 * pass owns one and refills it each frame ({@code clear().buffer(...).image(...)}), so binding allocates nothing.
 * Entries are keyed by the resource's serial (Vulkan handles are reused), as {@link DescriptorSets.Binding}'s records
 * are; {@link DescriptorSets} keeps a {@link #copy} for each set it makes.
 */
public final class Bindings implements KernelBindings {
    static final byte RANGE = 0;
    static final byte STORAGE_IMAGE = 1;
    static final byte SAMPLED = 2;
    /** Longs an entry: kind, serial, handle (buffer or image view), offset (buffer offset, or the sampler), size. */
    private static final int STRIDE = 5;

    private long[] entries;
    private int count;
    /**
     * A digest of the entries' resources and offsets, kept as they are added: {@link RecentSets} compares it first, so a
     * lookup compares whole entries only with the row that holds the same resources (equal entries, equal digests).
     */
    private long digest;

    public Bindings() {
        this(4);
    }

    public Bindings(int capacity) {
        entries = new long[STRIDE * capacity];
    }

    /** Empties the list for the next dispatch; returns this. */
    @Override
    public Bindings clear() {
        count = 0;
        digest = 0;
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
        int at = STRIDE * count;
        if (at == entries.length) {
            entries = Arrays.copyOf(entries, STRIDE * Math.max(4, 2 * count));
        }
        entries[at] = k;
        entries[at + 1] = s;
        entries[at + 2] = h;
        entries[at + 3] = o;
        entries[at + 4] = sz;
        count++;
        digest = Long.rotateLeft(digest, 13) ^ s ^ (o * 0x9E3779B97F4A7C15L);
        return this;
    }

    /** The digest of the entries' serials and offsets (equal for equal entries). */
    long digest() {
        return digest;
    }

    @Override
    public int size() {
        return count;
    }

    byte kind(int i) { return (byte) entries[STRIDE * i]; }

    /** The entry kind a binding of {@code type} takes. */
    static byte kindOf(dev.tally.shader.BindingType type) {
        return switch (type) {
            case STORAGE_BUFFER -> RANGE;
            case STORAGE_IMAGE -> STORAGE_IMAGE;
            case SAMPLED_IMAGE -> SAMPLED;
        };
    }
    long handle(int i) { return entries[STRIDE * i + 2]; }

    /** Entry {@code i}'s buffer offset in bytes (a sampled image's sampler). */
    public long offset(int i) {
        return entries[STRIDE * i + 3];
    }

    long byteSize(int i) { return entries[STRIDE * i + 4]; }

    /** An exact copy, sized to fit: the key a cached set is kept under. */
    Bindings copy() {
        Bindings c = new Bindings(Math.max(1, count));
        System.arraycopy(entries, 0, c.entries, 0, STRIDE * count);
        c.count = count;
        c.digest = digest;
        return c;
    }

    /** The longs the entries fill. */
    int longs() {
        return STRIDE * count;
    }

    /** Whether {@code row} holds exactly these entries from {@code from} on (the row's own length checked by the caller). */
    boolean sameAs(long[] row, int from) {
        int n = STRIDE * count;
        return Arrays.equals(entries, 0, n, row, from, from + n);
    }

    /** Writes the entries into {@code row} from {@code from} on. */
    void copyTo(long[] row, int from) {
        System.arraycopy(entries, 0, row, from, STRIDE * count);
    }

    boolean sameAs(Bindings o) {
        return o.count == count && Arrays.equals(entries, 0, STRIDE * count, o.entries, 0, STRIDE * count);
    }

    int contentHash() {
        int h = 1;
        for (int i = 0, n = STRIDE * count; i < n; i++) {
            h = 31 * h + Long.hashCode(entries[i]);
        }
        return h;
    }
}
