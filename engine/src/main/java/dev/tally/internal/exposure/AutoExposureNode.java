package dev.tally.internal.exposure;

import dev.tally.internal.reduce.ReducePasses;
import dev.tally.vk.GpuImage;

import dev.tally.exposure.AutoExposure;

import dev.tally.graph.FrameGraph;

import dev.tally.exposure.Metering;

import dev.tally.exposure.ExposureShaderLayout;

import dev.tally.exposure.ExposureSettings;

import dev.tally.graph.Access;
import dev.tally.graph.BufferDesc;
import dev.tally.graph.BufferHandle;
import dev.tally.internal.graph.GraphDeclaration;
import dev.tally.internal.graph.GraphRuntime;
import dev.tally.internal.graph.HistoryBuffer;
import dev.tally.graph.ImageHandle;
import dev.tally.graph.PassKind;
import dev.tally.internal.graph.RecordedRequest;
import dev.tally.reduce.ReduceNode;
import dev.tally.reduce.ReduceOp;
import dev.tally.internal.reduce.Reducer;
import dev.tally.shader.BindingType;
import dev.tally.internal.shader.Bindings;
import dev.tally.internal.shader.ComputeKernel;
import dev.tally.internal.shader.PipelineCache;
import dev.tally.internal.shader.Samplers;
import dev.tally.internal.shader.ShaderLibrary;
import dev.tally.internal.shader.SpecConstants;
import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.internal.vk.TrackedImage;
import dev.tally.vk.MemoryKind;
import dev.tally.internal.vk.VulkanContext;
import org.lwjgl.system.MemoryStack;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import static org.lwjgl.vulkan.VK10.*;

/**
 * Auto-exposure as passes in a frame graph, with no CPU round trip: histogram of the HDR image,
 * its total by the reduction node, normalization by that GPU-side total, then exposure adaptation
 * against last frame's exposure (a history resource). The tonemap pass reads the result directly.
 */
public final class AutoExposureNode implements AutoExposure {

    private final VulkanContext ctx;
    private final ShaderLibrary compiler;
    private final PipelineCache cache;
    private final TrackedBuffer accumulator;
    private ComputeKernel adapt;
    private final ReduceNode total;
    private final HistoryBuffer history;
    /** The moving average of the normalized histogram (exposure.comp bindings 3 and 4). */
    private final HistoryBuffer filteredHistory;
    /** The compensation curve table (exposure.comp binding 5), rewritten by a transfer pass when the curve changes. */
    private final TrackedBuffer curveTable;
    /** The curve table's upload: pending from the start and after every curve change, until a recorded frame carries it. */
    private final RecordedRequest curveUpload = new RecordedRequest(true);
    /** Histogram pipelines by HDR format and rows per invocation (a specialization constant), built on first use. */
    private final java.util.Map<Integer, ComputeKernel> accumulateByRows = new java.util.HashMap<>();
    /** The last pipeline looked up and its key: the steady state finds it without boxing a key. */
    private int lastAccumulateKey = -1;
    /** The nearest sampler the histogram reads a SAMPLED-only image with; made on first such use. */
    private long hdrSampler;
    private ComputeKernel lastAccumulate;
    private ExposureSettings settings;
    private TrackedImage mask;
    private long mapSampler;
    /** A camera cut, pending until a recorded frame's exposure pass carries it. */
    private final RecordedRequest cut = new RecordedRequest(false);
    private final int histogramRows;
    private final String scope;

    /**
     * @param scope prefix of every pass and resource name (e.g. {@code "left"} gives {@code left/histogram}),
     *              so that several auto-exposures share one graph; empty for none
     */
    public AutoExposureNode(GraphRuntime graphs, ShaderLibrary compiler, PipelineCache cache, Reducer reducer, String scope,
                        ExposureSettings settings) {
        this(graphs, compiler, cache, reducer, scope, settings, 0);
    }

    /**
     * @param histogramRows pixel rows each histogram invocation reads (fewer, larger workgroups as it
     *                      grows), or 0 to choose per image size: as many as still leave enough
     *                      workgroups to fill the device
     */
    public AutoExposureNode(GraphRuntime graphs, ShaderLibrary compiler, PipelineCache cache, Reducer reducer, String scope,
                        ExposureSettings settings, int histogramRows) {
        this.histogramRows = histogramRows;
        this.ctx = graphs.context();
        this.scope = scope;
        this.histogramName = name("histogram");
        this.accumulatorName = name("histogram.accumulator");
        this.binsName = name("histogram.bins");
        this.normalizedName = name("histogram.normalized");
        this.exposureName = name("exposure");
        this.curveName = name("exposure.curve");
        this.compiler = compiler;
        this.cache = cache;
        this.settings = settings;
        try (dev.tally.internal.guard.ConstructionGuard guard = new dev.tally.internal.guard.ConstructionGuard()) {
            accumulator = guard.add(new TrackedBuffer(ctx, name("histogram.accumulator"), ExposureShaderLayout.FUSED_ACCUMULATOR_BYTES,
                    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind.DEVICE));
            graphs.fillOnFirstUse(accumulator, 0);   // recorded in the first frame, not waited for here
            ComputeKernel[] kernels = buildKernels();
            adapt = guard.add(kernels[0]);
            total = guard.add(new ReducePasses(graphs, reducer, name("reduce"), ReduceOp.SUM, ExposureShaderLayout.BINS));
            // Zeroed: "no valid exposure yet", so the first frame snaps to its target (no flash).
            history = graphs.history(name("exposure.history"), BufferDesc.of(ExposureShaderLayout.EXPOSURE_BYTES), 0);
            // Zeroed: flag 0, so the first frame's histogram is taken as it is.
            filteredHistory = graphs.history(name("exposure.filteredHistogram"), BufferDesc.of(ExposureShaderLayout.NORMALIZED_BYTES), 0);
            curveTable = guard.add(new TrackedBuffer(ctx, name("exposure.curve"), ExposureShaderLayout.CURVE_TABLE_BYTES,
                    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind.DEVICE));
            guard.done();
        }
    }

    private ComputeKernel[] buildKernels() {
        List<ComputeKernel> made = new ArrayList<>();
        try {
            made.add(new ComputeKernel(ctx, compiler, cache, ExposureShaderLayout.EXPOSURE, java.util.Map.of(), null,
                    ExposureShaderLayout.EXPOSURE_BINDINGS, ExposureShaderLayout.EXPOSURE_PUSH_BYTES));
            return made.toArray(ComputeKernel[]::new);
        } catch (RuntimeException e) {
            made.forEach(ComputeKernel::close);
            throw e;
        }
    }

    /**
     * Hot reload: rebuilds every pipeline from the current shader sources, between frames. On a
     * compile error the previous pipelines stay and the error is thrown.
     */
    public void reload() {
        ComputeKernel[] fresh = buildKernels();
        ComputeKernel probe;
        try {
            probe = histogramKernel(ExposureShaderLayout.HdrFormat.RGBA16F, settings.metering(), ExposureShaderLayout.DEFAULT_ROWS_PER_INVOCATION,
                    HdrRead.STORAGE);
        } catch (RuntimeException e) {
            for (ComputeKernel k : fresh) {
                k.close();
            }
            throw e;
        }
        probe.close();   // the histogram compiles; per-size variants are rebuilt on first use
        // Closing defers destruction until the GPU is done with frames already submitted.
        accumulateByRows.values().forEach(ComputeKernel::close);
        accumulateByRows.clear();
        lastAccumulate = null;
        adapt.close();
        adapt = fresh[0];
    }

    /**
     * Rows per invocation for a w x h image. Where the SM count is known: the fewest rows that still let
     * every group be resident at once (one wave of {@link ExposureShaderLayout#HISTOGRAM_GROUPS_PER_SM}
     * groups per SM, bands of equal height), so no second, mostly idle wave waits on the first. Otherwise
     * up to 32, but at least ~1024 workgroups when the image allows.
     */
    int rowsFor(int width, int height) {
        if (histogramRows > 0) {
            return histogramRows;
        }
        if (width == rowsForWidth && height == rowsForHeight) {
            return rowsForSize;   // steady state: the same size every frame, and the search below makes arrays
        }
        rowsForSize = searchRows(width, height);
        rowsForWidth = width;
        rowsForHeight = height;
        return rowsForSize;
    }

    private int rowsForWidth = -1, rowsForHeight = -1, rowsForSize;

    private int searchRows(int width, int height) {
        int sms = ctx.info().smCount();
        if (sms > 0) {
            return ExposureShaderLayout.oneWaveRows(width, height, sms);
        }
        int rows = ExposureShaderLayout.DEFAULT_ROWS_PER_INVOCATION;
        while (rows > 1) {
            int[] g = ExposureShaderLayout.histogramGroupCounts(width, height, rows);
            if ((long) g[0] * g[1] >= 1024) {
                break;
            }
            rows /= 2;
        }
        return rows;
    }

    /** The histogram pipeline for this format, rows per invocation and image read, built on first use. */
    private ComputeKernel accumulateKernel(ExposureShaderLayout.HdrFormat format, int rows, HdrRead read) {
        int key = (rows * 8 + format.ordinal()) * 2 + read.ordinal();
        if (key != lastAccumulateKey || lastAccumulate == null) {
            lastAccumulate = accumulateByRows.computeIfAbsent(key, k -> histogramKernel(format, settings.metering(), rows, read));
            lastAccumulateKey = key;
        }
        return lastAccumulate;
    }

    private ComputeKernel histogramKernel(ExposureShaderLayout.HdrFormat format, Metering metering, int rows, HdrRead read) {
        List<BindingType> types = metering == Metering.MASK
                ? List.of(read.binding(), BindingType.STORAGE_BUFFER, BindingType.STORAGE_BUFFER, BindingType.SAMPLED_IMAGE)
                : List.of(read.binding(), BindingType.STORAGE_BUFFER, BindingType.STORAGE_BUFFER);
        return new ComputeKernel(ctx, compiler, cache, ExposureShaderLayout.HISTOGRAM,
                ExposureShaderLayout.fusedHistogramDefines(format, metering, read == HdrRead.SAMPLED),
                SpecConstants.of(ExposureShaderLayout.SPEC_ROWS_PER_INVOCATION, rows),
                types, ExposureShaderLayout.HISTOGRAM_PUSH_BYTES);
    }

    /** Changes settings at run time; a new metering mode rebuilds the histogram pipeline. */
    public void settings(ExposureSettings next) {
        if (next.metering() != settings.metering()) {
            accumulateByRows.values().forEach(ComputeKernel::close);   // destruction deferred past frames in flight
            accumulateByRows.clear();
            lastAccumulate = null;
        }
        if (!next.curve().equals(settings.curve())) {
            curveUpload.ask();
        }
        settings = next;
    }

    public ExposureSettings settings() {
        return settings;
    }

    /** The metering mask (red channel = weight) used when metering is MASK; the caller owns it. */
    public void mask(GpuImage image, long sampler) {
        this.mask = image == null ? null : TrackedImage.of(image, "AutoExposure.mask", scope);
        this.mapSampler = sampler;
    }

    /** A camera cut: the next frame snaps to its target instead of adapting. */
    public void reset() {
        cut.ask();
    }

    /** The scoped name of {@code local}, made once per name: passes are declared under these names every frame. */
    private String name(String local) {
        String known = scopedNames.get(local);   // steady state: no capturing lambda
        return known != null ? known : scopedNames.computeIfAbsent(local, l -> scope.isEmpty() ? l : scope + "/" + l);
    }

    private final java.util.Map<String, String> scopedNames = new java.util.HashMap<>();
    /** The names declared every frame, scoped once: no map asked per frame. */
    private String histogramName, accumulatorName, binsName, normalizedName, exposureName, curveName;   // set by the constructor; read by setups made before it
    private static final BufferDesc BINS_DESC = BufferDesc.of(ExposureShaderLayout.BINS_BYTES);
    private static final BufferDesc NORMALIZED_DESC = BufferDesc.of(ExposureShaderLayout.NORMALIZED_BYTES);

    /** The scope this auto-exposure's names start with. */
    public String scope() {
        return scope;
    }

    /**
     * Adds passes histogram (its resolve fused in), reduce*, and exposure (normalization fused in), each under this
     * auto-exposure's scope, metering {@code hdr}, whose extent comes from the graph.
     */
    public Result add(FrameGraph frameGraph, ImageHandle hdr, float dt) {
        GraphDeclaration g = GraphDeclaration.of(frameGraph);
        int width = g.desc(hdr).width();
        int height = g.desc(hdr).height();
        ExposureShaderLayout.HdrFormat format = ExposureShaderLayout.HdrFormat.of(g.desc(hdr).format());
        if (format == null) {
            throw new IllegalArgumentException(name("histogram") + ": the HDR image's format (VkFormat " + g.desc(hdr).format()
                    + ") is not one the histogram reads; expected " + ExposureShaderLayout.HdrFormat.names());
        }
        ExposureSettings s = settings;
        long cutTicket = cut.ticket();
        boolean reset = cutTicket != 0;
        HdrRead read = HdrRead.of(g.desc(hdr).usage(), histogramName, g.name(hdr));
        if (read == HdrRead.SAMPLED && hdrSampler == 0) {
            hdrSampler = Samplers.create(ctx, false);
        }
        long sampler = hdrSampler;
        int rows = rowsFor(width, height);
        ComputeKernel acc = accumulateKernel(format, rows, read);
        if (s.metering() == Metering.MASK && mask == null) {
            throw new IllegalStateException("metering is mask but no mask image was given (AutoExposure.mask)");
        }
        BufferHandle accumulatorHandle = g.importScratch(accumulatorName, accumulator);
        // This frame's values, read by the passes' callbacks (made once, in the constructor): no lambda captures per frame.
        // One declaration per frame: a frame is recorded (or given up) before the next one is declared.
        if (width != groupsForWidth || height != groupsForHeight || rows != groupsForRows) {
            int[] groups = ExposureShaderLayout.histogramGroupCounts(width, height, rows);
            groupsX = groups[0];
            groupsY = groups[1];
            groupsForWidth = width;
            groupsForHeight = height;
            groupsForRows = rows;
        }
        frameSettings = s;
        frameAccumulate = acc;
        frameDt = dt;
        frameReset = reset;
        frameCutTicket = cutTicket;
        frameHdr = hdr;
        frameAccumulator = accumulatorHandle;
        frameRead = read;
        frameSampler = sampler;
        // One pass: the histogram's last workgroup resolves the bins (and re-zeroes the accumulator).
        Hist res = g.addPass(histogramName, PassKind.COMPUTE, histogramSetup, histogramRecord);
        frameHdr = null;
        frameAccumulator = null;
        BufferHandle totalHandle = total.add(g, res.bins(), ExposureShaderLayout.BINS);
        BufferHandle curve = curveHandle(g, s);
        GraphDeclaration.History past = g.history(history);
        GraphDeclaration.History pastFiltered = g.history(filteredHistory);
        frameBins = res.bins();
        frameTotal = totalHandle;
        framePast = past;
        framePastFiltered = pastFiltered;
        frameCurve = curve;
        Adapt adapted = g.addPass(exposureName, PassKind.COMPUTE, exposureSetup, exposureRecord);
        frameBins = frameTotal = frameCurve = null;
        framePast = framePastFiltered = null;
        frameSettings = null;
        frameAccumulate = null;
        for (Result r : recentResults) {
            if (r != null && r.bins() == res.bins() && r.total() == totalHandle && r.normalized() == adapted.normalized()
                    && r.exposure() == adapted.current()) {
                return r;
            }
        }
        Result made = new Result(res.bins(), totalHandle, adapted.normalized(), adapted.current());
        recentResults[nextResult] = made;
        nextResult = (nextResult + 1) % recentResults.length;
        return made;
    }

    /**
     * The histogram pass's data, one object rewritten by each frame's setup: one declaration per frame, and only the frame
     * declared last can be recorded, so the frame that reads it is the one that wrote it (no record per frame).
     */
    private static final class Hist {
        private ImageHandle hdr;
        private BufferHandle accumulator, bins;
        private ExposureSettings settings;
        private ComputeKernel kernel;
        private int groupsX, groupsY;
        private HdrRead read;
        private long sampler;

        Hist set(ImageHandle hdr, BufferHandle accumulator, BufferHandle bins, ExposureSettings settings, ComputeKernel kernel, int groupsX,
                 int groupsY, HdrRead read, long sampler) {
            this.hdr = hdr;
            this.accumulator = accumulator;
            this.bins = bins;
            this.settings = settings;
            this.kernel = kernel;
            this.groupsX = groupsX;
            this.groupsY = groupsY;
            this.read = read;
            this.sampler = sampler;
            return this;
        }

        ImageHandle hdr() { return hdr; }
        BufferHandle accumulator() { return accumulator; }
        BufferHandle bins() { return bins; }
        ExposureSettings settings() { return settings; }
        ComputeKernel kernel() { return kernel; }
        int groupsX() { return groupsX; }
        int groupsY() { return groupsY; }
        HdrRead read() { return read; }
        long sampler() { return sampler; }
    }

    /**
     * The exposure pass's data (normalization is fused into it: it reads the bins and the GPU total and writes the
     * normalized histogram), one object rewritten by each frame's setup, as {@link Hist} is.
     */
    private static final class Adapt {
        private BufferHandle bins, total, normalized, filteredBefore, filtered, previous, current, curve;
        private ExposureSettings settings;
        private float dt;
        private boolean reset;
        private long cutTicket;

        Adapt set(BufferHandle bins, BufferHandle total, BufferHandle normalized, BufferHandle filteredBefore, BufferHandle filtered,
                  BufferHandle previous, BufferHandle current, BufferHandle curve, ExposureSettings settings, float dt, boolean reset,
                  long cutTicket) {
            this.bins = bins;
            this.total = total;
            this.normalized = normalized;
            this.filteredBefore = filteredBefore;
            this.filtered = filtered;
            this.previous = previous;
            this.current = current;
            this.curve = curve;
            this.settings = settings;
            this.dt = dt;
            this.reset = reset;
            this.cutTicket = cutTicket;
            return this;
        }

        BufferHandle bins() { return bins; }
        BufferHandle total() { return total; }
        BufferHandle normalized() { return normalized; }
        BufferHandle filteredBefore() { return filteredBefore; }
        BufferHandle filtered() { return filtered; }
        BufferHandle previous() { return previous; }
        BufferHandle current() { return current; }
        BufferHandle curve() { return curve; }
        ExposureSettings settings() { return settings; }
        float dt() { return dt; }
        boolean reset() { return reset; }
        long cutTicket() { return cutTicket; }
    }

    private final Hist hist = new Hist();
    private final Adapt adaptData = new Adapt();
    /**
     * The results handed out lately, one per frame graph the runtime declares frames in (each issues its own handles, the
     * same ones frame after frame): handed out again while the handles are the same.
     */
    private final Result[] recentResults = new Result[4];
    private int nextResult;

    // The frame being declared, set by add and read by the setups while add runs (no lambda captures per frame);
    // the setups put what recording needs into the passes' data.
    private ImageHandle frameHdr;
    private HdrRead frameRead;
    private long frameSampler;
    private BufferHandle frameAccumulator, frameBins, frameTotal, frameCurve;
    private GraphDeclaration.History framePast, framePastFiltered;
    private ExposureSettings frameSettings;
    private ComputeKernel frameAccumulate;
    private float frameDt;
    private boolean frameReset;
    private long frameCutTicket;
    private int groupsX, groupsY, groupsForWidth = -1, groupsForHeight = -1, groupsForRows = -1;
    /** Push constants, rewritten per dispatch and copied into the command buffer by vkCmdPushConstants. */
    private final ByteBuffer histogramPush = ByteBuffer.allocateDirect(ExposureShaderLayout.HISTOGRAM_PUSH_BYTES).order(ByteOrder.nativeOrder());
    private final ByteBuffer exposurePush = ByteBuffer.allocateDirect(ExposureShaderLayout.EXPOSURE_PUSH_BYTES).order(ByteOrder.nativeOrder());
    /**
     * What {@link #exposurePush} holds: written for these settings, dt (its bits) and reset. A frame with the same three
     * writes nothing (the blend weight's {@code expm1} is a native call on JDK 17, 0.1 us a frame).
     */
    private ExposureSettings pushedSettings;
    private int pushedDtBits;
    private boolean pushedReset;
    private final Bindings histogramBindings = new Bindings(4);
    private final Bindings exposureBindings = new Bindings(8);

    private final java.util.function.Function<dev.tally.graph.PassBuilder, Hist> histogramSetup = b -> asyncCandidate(b,
            hist.set(b.read(frameHdr, frameRead.access()), b.write(frameAccumulator, Access.COMPUTE_READ_WRITE),
                    b.write(b.create(binsName, BINS_DESC), Access.COMPUTE_WRITE), frameSettings, frameAccumulate, groupsX, groupsY,
                    frameRead, frameSampler));

    private final java.util.function.BiConsumer<Hist, dev.tally.graph.PassContext> histogramRecord = (h, c) -> {
        Bindings bindings = histogramBindings.clear();
        if (h.read() == HdrRead.SAMPLED) {
            bindings.sampled(c.image(h.hdr()), h.sampler());   // an image the host made without STORAGE usage: texel fetches
        } else {
            bindings.storageImage(c.image(h.hdr()));
        }
        bindings.buffer(c.buffer(h.accumulator()), 0, ExposureShaderLayout.FUSED_ACCUMULATOR_BYTES)
                .buffer(c.buffer(h.bins()), 0, ExposureShaderLayout.BINS_BYTES);
        if (h.settings().metering() == Metering.MASK) {
            bindings.sampled(mask, mapSampler);
        }
        ExposureShaderLayout.putHistogramPush(histogramPush.clear(), h.settings());
        h.kernel().dispatch(c.cmd(), bindings, histogramPush.rewind(), h.groupsX(), h.groupsY());
    };

    private final java.util.function.Function<dev.tally.graph.PassBuilder, Adapt> exposureSetup = b -> asyncCandidate(b,
            adaptData.set(b.read(frameBins, Access.COMPUTE_READ), b.read(frameTotal, Access.COMPUTE_READ),
                    b.write(b.create(normalizedName, NORMALIZED_DESC), Access.COMPUTE_WRITE),
                    b.read(framePastFiltered.previous(), Access.COMPUTE_READ), b.write(framePastFiltered.current(), Access.COMPUTE_WRITE),
                    b.read(framePast.previous(), Access.COMPUTE_READ), b.write(framePast.current(), Access.COMPUTE_WRITE),
                    b.read(frameCurve, Access.COMPUTE_READ), frameSettings, frameDt, frameReset, frameCutTicket));

    private final java.util.function.BiConsumer<Adapt, dev.tally.graph.PassContext> exposureRecord = (h, c) -> {
        if (h.settings() != pushedSettings || Float.floatToRawIntBits(h.dt()) != pushedDtBits || h.reset() != pushedReset) {
            ExposureShaderLayout.putExposurePush(exposurePush.clear(), h.settings(), h.dt(), h.reset());
            pushedSettings = h.settings();
            pushedDtBits = Float.floatToRawIntBits(h.dt());
            pushedReset = h.reset();
        }
        cut.recorded(h.cutTicket());
        adapt.dispatch(c.cmd(), exposureBindings.clear()
                .buffer(c.buffer(h.bins()), 0, ExposureShaderLayout.BINS_BYTES)
                .buffer(c.buffer(h.total()), 0, ExposureShaderLayout.TOTAL_BYTES)
                .buffer(c.buffer(h.normalized()), 0, ExposureShaderLayout.NORMALIZED_BYTES)
                .buffer(c.buffer(h.filteredBefore()), 0, ExposureShaderLayout.NORMALIZED_BYTES)
                .buffer(c.buffer(h.filtered()), 0, ExposureShaderLayout.NORMALIZED_BYTES)
                .buffer(c.buffer(h.previous()), 0, ExposureShaderLayout.EXPOSURE_BYTES)
                .buffer(c.buffer(h.current()), 0, ExposureShaderLayout.EXPOSURE_BYTES)
                .buffer(c.buffer(h.curve()), 0, ExposureShaderLayout.CURVE_TABLE_BYTES), exposurePush.rewind(), 1, 1);
    };

    /**
     * Marks a pass of the chain as a candidate for the async compute queue (it only reads the finished HDR
     * image; its results are needed by later passes, which wait across queues) and returns its handles.
     */
    private static <T> T asyncCandidate(dev.tally.graph.PassBuilder b, T handles) {
        b.asyncCompute();
        return handles;
    }

    /**
     * The curve table in this frame: imported, and rewritten first by pass {@code exposure.curve}
     * (vkCmdUpdateBuffer) on the first frame and whenever the settings brought a different curve, until a
     * frame carrying the upload is recorded (a frame given up before recording declares it again next time).
     */
    private BufferHandle curveHandle(GraphDeclaration g, ExposureSettings s) {
        BufferHandle table = g.importBuffer(curveName, curveTable, null);
        long ticket = curveUpload.ticket();
        if (ticket == 0) {
            return table;
        }
        float[] baked = s.curve().bake();
        return g.addPass(curveName, PassKind.TRANSFER, b -> b.write(table, Access.TRANSFER_DST), (h, c) -> {
            try (MemoryStack stack = MemoryStack.stackPush()) {
                vkCmdUpdateBuffer(c.cmd(), c.buffer(h).handle(), 0, stack.floats(baked));
            }
            curveUpload.recorded(ticket);
        });
    }

    @Override
    public void close() {
        if (!curveTable.isClosed()) {
            ctx.requireOpen("AutoExposure '" + scope + "'");
        }
        if (hdrSampler != 0) {
            Samplers.destroy(ctx, hdrSampler);   // deferred past the frames that may still sample with it
            hdrSampler = 0;
        }
        accumulateByRows.values().forEach(ComputeKernel::close);
        adapt.close();
        total.close();
        accumulator.close();
        history.close();
        filteredHistory.close();
        curveTable.close();
    }
}
