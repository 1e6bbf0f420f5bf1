package dev.tally.internal.reduce;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/** The dispatch arithmetic of a reduction; no GPU involved. */
class ReducePlanTest {
    /** 256 invocations x unroll 2 x vec4: one group consumes 2048 floats per loop step. */
    private static final ReduceSettings SETTINGS = new ReduceSettings(256, 64, 2, 1L << 22, 1, 1L << 28);

    private static ReduceSettings settings(int groups, long singleDispatchMax, int minSteps, long chunkElements) {
        return new ReduceSettings(256, groups, 2, singleDispatchMax, minSteps, chunkElements);
    }

    /** Invariants every plan keeps, whatever its shape. */
    private static void assertWellFormed(ReducePlan plan, ReduceSettings s) {
        List<ReducePlan.Dispatch> d = plan.firstPass();
        assertFalse(d.isEmpty(), "a plan has at least one dispatch");
        long nextOffset = 0;
        int nextOut = 0;
        long total = 0;
        // Messages are suppliers: plans here have up to tens of thousands of dispatches.
        for (ReducePlan.Dispatch x : d) {
            assertEquals(nextOffset, x.elementOffset(), () -> "dispatches cover the input in order: " + x);
            assertEquals(nextOut, x.outIndex(), () -> "partials are contiguous: " + x);
            assertTrue(x.groups() >= 1 && x.groups() <= s.groups(), () -> "groups in 1.." + s.groups() + ": " + x);
            assertTrue(x.count() <= s.chunkElements(), () -> "a dispatch binds at most chunkElements: " + x);
            assertEquals(0, (4 * x.elementOffset()) % 16, () -> "offsets stay 16-byte aligned: " + x);
            nextOffset += x.count();
            nextOut += x.groups();
            total += x.count();
        }
        assertEquals(plan.n(), total, () -> "counts sum to n: " + d.size() + " dispatches");
        assertEquals(nextOut, plan.partials(), "partials is the total of the groups");
        assertTrue(plan.partialsOffset() >= ReducePlan.TICKET_BYTES, "the partials start after the ticket");
        assertEquals(0, plan.partialsOffset() % s.storageAlignment(), "the partials' binding offset is aligned");
        assertTrue(plan.scratchBytes() >= plan.partialsOffset() + 4L * plan.partials(), "scratch has room for every partial");
        assertEquals(plan.onePass(), plan.n() <= s.singleDispatchMax() && plan.n() <= s.chunkElements(),
                "one pass exactly when n fits both singleDispatchMax and one binding");
    }

    @Test
    void emptyInputIsOneDispatchOfOneGroup() {
        ReducePlan plan = ReducePlan.of(0, SETTINGS);
        assertTrue(plan.onePass());
        assertEquals(0, plan.n());
        assertEquals(List.of(new ReducePlan.Dispatch(0, 0, 1, 0)), plan.firstPass());
        assertEquals(1, plan.partials());
        assertEquals(1, plan.dispatchCount());
        assertEquals(ReducePlan.TICKET_BYTES + 4, plan.scratchBytes());
        ReducePlan aligned = ReducePlan.of(0, SETTINGS.withStorageAlignment(256));
        assertEquals(256 + 4, aligned.scratchBytes(), "partials at the next multiple of 256 after the ticket");
        assertWellFormed(aligned, SETTINGS.withStorageAlignment(256));
        assertWellFormed(plan, SETTINGS);
    }

    @Test
    void negativeCountIsRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ReducePlan.of(-1, SETTINGS));
        assertTrue(e.getMessage().contains("-1"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ReducePlan.of(Long.MIN_VALUE, SETTINGS));
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 3, 4, 5, 2047, 2048})
    void inputsWithinOneGroupStepUseOneGroup(long n) {
        ReducePlan plan = ReducePlan.of(n, SETTINGS);
        assertTrue(plan.onePass());
        assertEquals(List.of(new ReducePlan.Dispatch(0, n, 1, 0)), plan.firstPass());
        assertWellFormed(plan, SETTINGS);
    }

    @Test
    void smallInputsGetOneGroupPerGroupStep() {
        assertEquals(2, ReducePlan.of(2049, SETTINGS).partials());
        assertEquals(3, ReducePlan.of(5000, SETTINGS).partials());
        assertEquals(10, ReducePlan.of(10 * 2048, SETTINGS).partials());
        assertEquals(11, ReducePlan.of(10 * 2048 + 1, SETTINGS).partials());
    }

    @Test
    void minStepsGivesEachInvocationMoreWorkBeforeAddingGroups() {
        ReduceSettings s = settings(64, 1L << 22, 4, 1L << 28);
        assertEquals(1, ReducePlan.of(4 * 2048, s).partials());
        assertEquals(2, ReducePlan.of(4 * 2048 + 1, s).partials());
        assertEquals(3, ReducePlan.of(9 * 2048, s).partials());
    }

    @Test
    void largeOnePassInputIsCappedAtTheConfiguredGroups() {
        ReducePlan plan = ReducePlan.of(1 << 20, SETTINGS); // wants 512 groups, may have 64
        assertTrue(plan.onePass());
        assertEquals(1, plan.firstPass().size());
        assertEquals(64, plan.firstPass().get(0).groups());
        assertEquals(64, plan.partials());
        assertWellFormed(plan, SETTINGS);
    }

    @Test
    void singleDispatchMaxIsTheLastOnePassSize() {
        ReduceSettings s = settings(64, 10_000, 1, 1L << 28);
        ReducePlan at = ReducePlan.of(10_000, s);
        assertTrue(at.onePass());
        assertEquals(1, at.dispatchCount());

        ReducePlan above = ReducePlan.of(10_001, s);
        assertFalse(above.onePass());
        assertEquals(1, above.firstPass().size(), "one chunk: one first-pass dispatch");
        assertEquals(2, above.dispatchCount(), "plus the fold");
        assertEquals(new ReducePlan.Dispatch(0, 10_001, 5, 0), above.firstPass().get(0));
        assertEquals(5, above.partials());
        assertWellFormed(above, s);
    }

    @Test
    void singleDispatchMaxZeroMakesEveryNonEmptyInputTwoPass() {
        ReduceSettings s = settings(64, 0, 1, 1L << 28);
        assertTrue(ReducePlan.of(0, s).onePass());
        ReducePlan one = ReducePlan.of(1, s);
        assertFalse(one.onePass());
        assertEquals(2, one.dispatchCount());
        assertWellFormed(one, s);
    }

    @Test
    void largeTwoPassInputIsCappedAtTheConfiguredGroups() {
        ReducePlan plan = ReducePlan.of((1L << 22) + 1, SETTINGS);
        assertFalse(plan.onePass());
        assertEquals(64, plan.partials());
        assertWellFormed(plan, SETTINGS);
    }

    @Test
    void inputAboveOneBindingIsSplitIntoContiguousChunks() {
        long chunk = 4096;
        ReduceSettings s = settings(3, 1L << 22, 1, chunk);
        long n = 3 * chunk + 5;
        ReducePlan plan = ReducePlan.of(n, s);
        assertFalse(plan.onePass(), "larger than one binding, even though below singleDispatchMax");
        List<ReducePlan.Dispatch> d = plan.firstPass();
        assertEquals(4, d.size(), "ceil(n / chunk) dispatches: " + d);
        assertEquals(List.of(
                new ReducePlan.Dispatch(0, 4096, 2, 0),
                new ReducePlan.Dispatch(4096, 4096, 2, 2),
                new ReducePlan.Dispatch(8192, 4096, 2, 4),
                new ReducePlan.Dispatch(12288, 5, 1, 6)), d);
        assertEquals(7, plan.partials());
        assertEquals(5, plan.dispatchCount());
        assertWellFormed(plan, s);
    }

    @Test
    void inputOfExactlyOneBindingStaysOnePass() {
        ReduceSettings s = settings(64, 1L << 22, 1, 4096);
        assertTrue(ReducePlan.of(4096, s).onePass());
        ReducePlan above = ReducePlan.of(4097, s);
        assertFalse(above.onePass());
        assertEquals(2, above.firstPass().size());
        assertWellFormed(above, s);
    }

    @Test
    void manyChunksKeepGroupsWithinTheLimitAndCoverTheInput() {
        ReduceSettings s = settings(5, 1L << 22, 1, 1L << 16);
        long n = 40L * (1 << 16) + 12_345;
        ReducePlan plan = ReducePlan.of(n, s);
        assertEquals(41, plan.firstPass().size());
        assertEquals(40 * 5 + 5, plan.partials()); // 12345 floats still want 7 groups, capped at 5
        assertWellFormed(plan, s);
    }

    @Test
    void planInvariantsHoldAcrossSizesAndSettings() {
        List<ReduceSettings> all = List.of(
                SETTINGS,
                settings(1, 1L << 22, 1, 1L << 28),
                settings(7, 100_000, 3, 8192),
                new ReduceSettings(32, 65535, 1, 0, 1, 4),
                new ReduceSettings(1024, 2, 8, 1L << 30, 1024, 1L << 30));
        long[] sizes = {0, 1, 2, 3, 4, 5, 15, 16, 17, 255, 256, 257, 2047, 2048, 2049, 8191, 8192, 8193,
                99_999, 100_000, 100_001, 1 << 20, (1 << 22) + 7, 123_456_789};
        for (ReduceSettings s : all) {
            for (long n : sizes) {
                if (s.chunkElements() == 4 && n > 100_000) {
                    continue; // millions of 4-float chunks: covered by smaller n
                }
                ReducePlan plan = ReducePlan.of(n, s);
                assertEquals(n, plan.n());
                assertEquals(n <= s.singleDispatchMax() && n <= s.chunkElements(), plan.onePass(), () -> "n=" + n + " " + s);
                assertWellFormed(plan, s);
            }
        }
    }

    @Test
    void randomSizesAndSettingsGiveWellFormedPlans() {
        java.util.SplittableRandom r = new java.util.SplittableRandom(11);
        for (int i = 0; i < 2000; i++) {
            long n = r.nextInt(4) == 0 ? r.nextLong(0, 1L << 34) : r.nextLong(0, 1L << 22);
            ReduceSettings s = SETTINGS.withStorageAlignment(1 << r.nextInt(4, 9));
            ReducePlan plan = ReducePlan.of(n, s);
            assertEquals(n, plan.n());
            assertWellFormed(plan, s);
        }
    }

    // ---- ReduceSettings validation --------------------------------------------------------------------

    @ParameterizedTest
    @ValueSource(ints = {-256, 0, 1, 16, 31, 48, 100, 384, 1000, 2048, 4096})
    void settingsRejectBadWorkgroupSizes(int wg) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new ReduceSettings(wg, 64, 2, 1L << 22, 1, 1L << 28));
        assertTrue(e.getMessage().contains("workgroupSize") && e.getMessage().contains(Integer.toString(wg)), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(ints = {32, 64, 128, 256, 512, 1024})
    void settingsAcceptPowerOfTwoWorkgroupSizes(int wg) {
        assertEquals(wg, new ReduceSettings(wg, 64, 2, 1L << 22, 1, 1L << 28).workgroupSize());
    }

    @Test
    void settingsRejectOtherBadValues() {
        assertThrows(IllegalArgumentException.class, () -> new ReduceSettings(256, 0, 2, 1L << 22, 1, 1L << 28), "groups 0");
        assertThrows(IllegalArgumentException.class, () -> new ReduceSettings(256, 64, 0, 1L << 22, 1, 1L << 28), "unroll 0");
        assertThrows(IllegalArgumentException.class, () -> new ReduceSettings(256, 64, 9, 1L << 22, 1, 1L << 28), "unroll 9");
        assertThrows(IllegalArgumentException.class, () -> new ReduceSettings(256, 64, 2, 1L << 22, 0, 1L << 28), "minSteps 0");
        assertThrows(IllegalArgumentException.class, () -> new ReduceSettings(256, 64, 2, 1L << 22, 1, 0), "chunk 0");
        assertThrows(IllegalArgumentException.class, () -> new ReduceSettings(256, 64, 2, 1L << 22, 1, 6), "chunk not /4");
    }

    @Test
    void elementsPerGroupStepIsVec4TimesUnrollTimesWorkgroup() {
        assertEquals(2048, SETTINGS.elementsPerGroupStep());
        assertEquals(4L * 8 * 1024, new ReduceSettings(1024, 1, 8, 0, 1, 4).elementsPerGroupStep());
    }

    /** An H200 as Tally reads it (132 SMs, 4 GiB binding range), or a CPU device with no SM count. */
    private static dev.tally.internal.vk.DeviceInfo device(int smCount, String type) {
        return new dev.tally.internal.vk.DeviceInfo(0, "test", type, 0x10de, "driver", "", "1.3", 32, 0xff, 0xFFFF_FFFFL, 1024, 65535,
                16, 1f, 64, smCount, true, false, 1L << 37, 65535);
    }

    @Test
    void defaultsTakeOneDispatchAtEverySizeOneBindingHoldsWhereTheSmCountIsKnown() {
        ReduceSettings gpu = ReduceSettings.resolve(dev.tally.config.Config.defaults(), device(132, "discrete"));
        for (int log2 : new int[]{10, 24, 26, 28}) {
            ReducePlan plan = ReducePlan.of(1L << log2, gpu);
            assertTrue(plan.onePass(), "2^" + log2 + " in one dispatch on an SM device");
            assertTrue(plan.partials() <= 132 * 2, "2^" + log2 + ": at most one resident wave of groups, got " + plan.partials());
        }
        assertFalse(ReducePlan.of(gpu.chunkElements() + 4, gpu).onePass(), "more than one binding holds takes two passes");
        ReduceSettings cpu = ReduceSettings.resolve(dev.tally.config.Config.defaults(), device(0, "cpu"));
        assertTrue(ReducePlan.of(1L << 22, cpu).onePass(), "a CPU device: one dispatch up to 2^22");
        assertFalse(ReducePlan.of((1L << 22) + 4, cpu).onePass(), "a CPU device: two dispatches above 2^22");
    }

    @Test
    void autoUnrollReadsLargeInputsWithThreeLoadsWhereTheSmCountIsKnown() {
        ReduceSettings gpu = ReduceSettings.resolve(dev.tally.config.Config.defaults(), device(132, "discrete"));
        assertEquals(2, ReducePlan.of(ReduceSettings.LARGE_INPUT - 4, gpu).unroll(), "below 2^26: the base unroll");
        assertEquals(3, ReducePlan.of(ReduceSettings.LARGE_INPUT, gpu).unroll(), "from 2^26: three loads in flight");
        assertEquals(3, ReducePlan.of(1L << 28, gpu).unroll());
        ReduceSettings cpu = ReduceSettings.resolve(dev.tally.config.Config.defaults(), device(0, "cpu"));
        assertEquals(2, ReducePlan.of(1L << 28, cpu).unroll(), "no SM count: the base unroll everywhere");
        ReduceSettings set = ReduceSettings.resolve(dev.tally.config.Config.defaults().with("reduce.unroll", "4"), device(132, "discrete"));
        assertEquals(4, ReducePlan.of(1L << 10, set).unroll(), "a configured unroll holds at every size");
        assertEquals(4, ReducePlan.of(1L << 28, set).unroll());
    }

    @Test
    void aPlansGroupsFollowItsOwnUnroll() {
        ReduceSettings s = new ReduceSettings(256, 1 << 20, 2, 0, 1, 1L << 30, false, 1 << 20, 16, 3);
        ReducePlan large = ReducePlan.of(ReduceSettings.LARGE_INPUT, s);
        assertEquals(3, large.unroll());
        assertEquals((int) ((ReduceSettings.LARGE_INPUT + 4L * 3 * 256 - 1) / (4L * 3 * 256)), large.firstPass().get(0).groups(),
                "one group per 3 vec4 loads of 256 invocations");
        assertWellFormed(large, s);
    }

    @Test
    void scratchUpToACountHoldsEveryPlanBelowIt() {
        // Groups not capped by the device: below 2^26 two loads a step make more groups than three loads at 2^26.
        ReduceSettings s = new ReduceSettings(1024, 65535, 2, 1L << 30, 1, 1L << 30, false, 65535, 16, 3);
        long largest = ReducePlan.scratchBytesUpTo(ReduceSettings.LARGE_INPUT, s);
        assertTrue(ReducePlan.of(ReduceSettings.LARGE_INPUT - 4, s).scratchBytes() > ReducePlan.of(ReduceSettings.LARGE_INPUT, s).scratchBytes(),
                "the case this guards: fewer partials at the larger count");
        for (long n : new long[]{1, 4096, 1L << 20, ReduceSettings.LARGE_INPUT - 4, ReduceSettings.LARGE_INPUT - 1, ReduceSettings.LARGE_INPUT}) {
            assertTrue(ReducePlan.of(n, s).scratchBytes() <= largest, "n=" + n + " needs " + ReducePlan.of(n, s).scratchBytes() + " > " + largest);
        }
        ReduceSettings twoPass = new ReduceSettings(256, 64, 2, 1L << 12, 1, 1L << 28);
        for (long n = 1; n < 20_000; n += 97) {
            assertTrue(ReducePlan.of(n, twoPass).scratchBytes() <= ReducePlan.scratchBytesUpTo(20_000, twoPass), "n=" + n);
        }
    }
}
