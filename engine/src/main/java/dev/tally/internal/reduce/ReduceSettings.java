package dev.tally.internal.reduce;

import dev.tally.config.Config;
import dev.tally.internal.vk.DeviceInfo;

/**
 * Resolved reduction tuning for one device. "auto" in the configuration becomes a figure chosen from
 * the device: the SM/CU count where the vendor exposes it, otherwise a conservative default.
 *
 * @param workgroupSize     invocations per workgroup
 * @param groups            most workgroups of the first pass (the partial count for large n)
 * @param unroll            vec4 loads in flight per invocation per step
 * @param singleDispatchMax inputs up to this many floats take one dispatch (the last group folds)
 * @param minSteps          loop steps each invocation gets at least before more groups are added
 * @param chunkElements     most floats bound at once (maxStorageBufferRange), a multiple of 4
 * @param blocked           each workgroup reads one contiguous range instead of a grid-stride interleave
 * @param onePassGroups     most workgroups of a one-pass dispatch: no more than can be resident at once,
 *                          so the last group to finish is never held up by a second wave
 * @param storageAlignment  every storage-buffer binding offset is a multiple of this (a power of two,
 *                          at least 16): the device's minStorageBufferOffsetAlignment, or more when
 *                          {@code debug.forceStorageAlignment} asks for it
 * @param largeUnroll       the unroll of inputs of at least {@link #LARGE_INPUT} floats (equal to {@code unroll}
 *                          unless "auto" chose more loads in flight for them)
 */
public record ReduceSettings(int workgroupSize, int groups, int unroll, long singleDispatchMax, int minSteps,
                             long chunkElements, boolean blocked, int onePassGroups, long storageAlignment, int largeUnroll) {
    /** Smallest binding alignment the reduction uses: its input offsets are whole vec4s. */
    public static final long MIN_ALIGNMENT = 16;
    /** From here on an input is read with {@link #largeUnroll}: where the group count is at its cap and only bandwidth is left. */
    public static final long LARGE_INPUT = 1L << 26;

    public ReduceSettings {
        if (Long.bitCount(storageAlignment) != 1 || storageAlignment < MIN_ALIGNMENT) {
            throw new IllegalArgumentException("storage alignment must be a power of two of at least " + MIN_ALIGNMENT + ", got " + storageAlignment);
        }
        if (Integer.bitCount(workgroupSize) != 1 || workgroupSize < 32 || workgroupSize > 1024) {
            throw new IllegalArgumentException("reduce.workgroupSize must be a power of two in 32..1024, got " + workgroupSize);
        }
        if (onePassGroups < 1) {
            throw new IllegalArgumentException("one-pass group limit must be positive, got " + onePassGroups);
        }
        if (groups < 1) {
            throw new IllegalArgumentException("reduce.groups must be positive, got " + groups);
        }
        if (unroll < 1 || unroll > 8 || largeUnroll < 1 || largeUnroll > 8) {
            throw new IllegalArgumentException("reduce.unroll must be in 1..8, got " + unroll + (largeUnroll != unroll ? " (" + largeUnroll
                    + " from " + LARGE_INPUT + " floats)" : ""));
        }
        if (minSteps < 1) {
            throw new IllegalArgumentException("minSteps must be positive, got " + minSteps);
        }
        if (chunkElements < 4 || chunkElements % 4 != 0) {
            throw new IllegalArgumentException("chunkElements must be a positive multiple of 4, got " + chunkElements);
        }
    }

    /** Grid-stride layout, one-pass group limit equal to {@code groups}. */
    public ReduceSettings(int workgroupSize, int groups, int unroll, long singleDispatchMax, int minSteps, long chunkElements) {
        this(workgroupSize, groups, unroll, singleDispatchMax, minSteps, chunkElements, false, groups, MIN_ALIGNMENT, unroll);
    }

    public ReduceSettings withStorageAlignment(long alignment) {
        return new ReduceSettings(workgroupSize, groups, unroll, singleDispatchMax, minSteps, chunkElements, blocked, onePassGroups, alignment,
                largeUnroll);
    }

    /** {@code offset} rounded up to {@link #storageAlignment}. */
    public long alignUp(long offset) {
        return (offset + storageAlignment - 1) & -storageAlignment;
    }

    public ReduceSettings withBlocked(boolean b) {
        return new ReduceSettings(workgroupSize, groups, unroll, singleDispatchMax, minSteps, chunkElements, b, onePassGroups, storageAlignment,
                largeUnroll);
    }

    /** Elements one workgroup consumes per loop step. */
    public long elementsPerGroupStep() {
        return elementsPerGroupStep(unroll);
    }

    long elementsPerGroupStep(int unrollUsed) {
        return 4L * unrollUsed * workgroupSize;
    }

    /** The unroll an input of {@code n} floats is read with. */
    public int unrollFor(long n) {
        return n >= LARGE_INPUT ? largeUnroll : unroll;
    }

    public static ReduceSettings resolve(Config config, DeviceInfo device) {
        int wg = config.integerOr("reduce.workgroupSize", defaultWorkgroupSize(device));
        if (wg > device.maxComputeWorkGroupInvocations()) {
            throw new IllegalArgumentException("reduce.workgroupSize " + wg + " exceeds the device's maxComputeWorkGroupInvocations "
                    + device.maxComputeWorkGroupInvocations());
        }
        int unroll = config.integerOr("reduce.unroll", 2);
        int largeUnroll = config.isAuto("reduce.unroll") ? defaultLargeUnroll(device) : unroll;
        int groups = config.integerOr("reduce.groups", defaultGroups(device, wg));
        groups = Math.min(groups, device.maxComputeWorkGroupCount());
        long single = config.isAuto("reduce.singleDispatchMax") ? defaultSingleDispatchMax(device)
                : config.integer("reduce.singleDispatchMax");
        int minSteps = config.integerOr("reduce.minSteps", 1);
        int onePass = device.smCount() > 0 && config.isAuto("reduce.groups") ? device.smCount() * Math.max(1, 2048 / wg) : groups;
        long alignment = storageAlignment(config, device);
        return new ReduceSettings(wg, groups, unroll, single, minSteps, chunkElements(device, alignment), false, Math.min(onePass, groups),
                alignment, largeUnroll);
    }

    /**
     * The device's minStorageBufferOffsetAlignment (at least 16), or {@code debug.forceStorageAlignment}
     * when that is larger: a device that demands 256 can be imitated on one that needs less.
     */
    static long storageAlignment(Config config, DeviceInfo device) {
        long forced = config.integerOr("debug.forceStorageAlignment", 0);
        if (forced != 0 && Long.bitCount(forced) != 1) {
            throw new IllegalArgumentException("debug.forceStorageAlignment must be 0 or a power of two, got " + forced);
        }
        return Math.max(MIN_ALIGNMENT, Math.max(device.minStorageBufferOffsetAlignment(), forced));
    }

    /**
     * Up to here one dispatch beats two: the second launch and its barrier cost more than the last
     * group's fold. Where the SM count is known, one dispatch at every size one binding holds: on the
     * H200 (BENCHMARKS.md) one pass of one resident wave measured 64.2 us at 2^26 against 66.0 us for two
     * passes of two waves, 20.4 against 20.7 at 2^24, level at 2^28 (237.7 us); the statistics 66.1
     * against 70.5 us at 2^26 and 238.9 against 245.6 at 2^28. Elsewhere up to 2^22.
     */
    static long defaultSingleDispatchMax(DeviceInfo device) {
        return device.smCount() > 0 ? 1L << 30 : 1L << 22;
    }

    /**
     * Where the SM count is known, three vec4 loads in flight per invocation from {@link #LARGE_INPUT} floats: there the
     * group count is at its cap and the read is bandwidth alone. On the H200 (BENCHMARKS.md), in one call with two
     * rounds each: 2^28 242.00 / 241.84 -> 241.18 / 241.15 us, 2^26 65.28 / 65.17 -> 65.12 / 65.02, 2^24 unchanged
     * (20.5), smaller inputs slower (2^16 5.1 -> 5.5: fewer groups), four slower at 2^24 and 2^26. Elsewhere 2.
     */
    static int defaultLargeUnroll(DeviceInfo device) {
        return device.smCount() > 0 ? 3 : 2;
    }

    /** 1024 where the SM count is known (the H200 sweep's best from 2^16 up), 256 on CPUs, else 512. */
    static int defaultWorkgroupSize(DeviceInfo device) {
        int max = Integer.highestOneBit(device.maxComputeWorkGroupInvocations());
        return device.isCpu() ? Math.min(256, max) : Math.min(device.smCount() > 0 ? 1024 : 512, max);
    }

    /**
     * Enough resident workgroups to keep every SM's memory pipeline busy: four per SM (at 1024
     * invocations, twice what can be resident, so a second wave hides the first's tail); a CPU needs
     * a few per core.
     */
    static int defaultGroups(DeviceInfo device, int wg) {
        if (device.smCount() > 0) {
            return device.smCount() * Math.max(1, 4096 / wg);
        }
        if (device.isCpu()) {
            return 4 * Runtime.getRuntime().availableProcessors();
        }
        return 512;
    }

    /** Largest binding range in floats: maxStorageBufferRange rounded down to 16 bytes and to the offset alignment. */
    static long chunkElements(DeviceInfo device, long align) {
        long bytes = Math.min(device.maxStorageBufferRange(), 0xFFFF_FFF0L);
        bytes -= bytes % align;
        return bytes / 4;
    }
}
