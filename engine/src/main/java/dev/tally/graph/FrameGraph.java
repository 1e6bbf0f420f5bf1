package dev.tally.graph;

import dev.tally.vk.GpuBuffer;
import dev.tally.vk.GpuImage;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Function;

import static org.lwjgl.vulkan.VK10.VK_IMAGE_LAYOUT_UNDEFINED;
import static org.lwjgl.vulkan.VK13.VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;

/**
 * One frame's declaration: resources and passes, each pass with a setup step (run now, declares
 * reads and writes) and an execute step (run later, records commands). {@link #compile()} validates,
 * culls, orders and plans memory; a {@link GraphRuntime} records it. Declaring touches no GPU.
 */
public final class FrameGraph {
    final List<GraphResource> resources;
    final List<Pass> passes;
    /**
     * Duplicate names are found by scanning the declared resources (passes) while a frame has few, and
     * through a hash set once it has more than {@link #SCAN_LIMIT}: a typical frame allocates no set.
     */
    private static final int SCAN_LIMIT = 64;
    private Set<String> names;
    private Set<String> passNames;
    /** Histories this frame declared: only these advance when it is recorded. */
    final List<HistoryBuffer> declaredHistories = new ArrayList<>();
    private String failedPass;
    private final GraphRuntime runtime;
    private final long frame;
    private final long timelineValue;
    /** Set once the frame is recorded: what is declared later would never run (and its readback never arrive). */
    private boolean recorded;

    /** A graph with no GPU behind it, for planning and tests. */
    public FrameGraph() {
        this(null, 0, 0, 10, 10);
    }

    /** {@code resources} and {@code passes}: how many to expect (the last frame's), so that the lists need not grow. */
    FrameGraph(GraphRuntime runtime, long frame, long timelineValue, int resources, int passes) {
        this.resources = new ArrayList<>(resources);
        this.passes = new ArrayList<>(passes);
        this.runtime = runtime;
        this.frame = frame;
        this.timelineValue = timelineValue;
    }

    /**
     * Refuses a declaration ({@code what} named {@code name}: a pass, a resource, a capture) once the frame
     * was recorded: it would never reach the command buffer.
     */
    public void requireDeclaring(String what, String name) {
        if (recorded) {
            throw new GraphException("frame " + frame + ": " + what + " '" + name + "' declared after frame.record(...);"
                    + " declare every pass, import and capture of a frame before recording it");
        }
    }

    /** The frame was recorded: nothing more may be declared on it. */
    void markRecorded() {
        recorded = true;
    }

    /** The number of the frame this graph declares (0 for a graph with no GPU behind it). */
    public long frame() {
        return frame;
    }

    /** The timeline value this frame's submission signals; the GPU is done with the frame once Tally's timeline reaches it. */
    public long timelineValue() {
        return timelineValue;
    }

    /** The description of the image behind {@code h} (extent, format, usage): passes need not be told it again. */
    public ImageDesc desc(ImageHandle h) {
        return resolve(h, "desc").imageDesc;
    }

    /** The description of the buffer behind {@code h} (its size in bytes). */
    public BufferDesc desc(BufferHandle h) {
        return resolve(h, "desc").bufferDesc;
    }

    /** The resource's name, for messages and labels. */
    public String name(Handle h) {
        return resolve(h, "name").name;
    }

    private GraphResource resolve(Handle h, String what) {
        if (h == null) {
            throw new GraphException(what + " of a null handle");
        }
        if (graphOf(h) != this) {
            throw new GraphException(what + ": handle " + h + " belongs to another frame's graph");
        }
        return resources.get(h.resource());
    }

    static Object graphOf(Handle h) {
        return h.graph;
    }

    /** False when a resource of this frame already has {@code name}; called before the resource is added. */
    private boolean claimResourceName(String name) {
        if (names == null && resources.size() >= SCAN_LIMIT) {
            names = new HashSet<>();
            for (GraphResource r : resources) {
                names.add(r.name);
            }
        }
        if (names != null) {
            return names.add(name);
        }
        for (int i = 0; i < resources.size(); i++) {
            if (resources.get(i).name.equals(name)) {
                return false;
            }
        }
        return true;
    }

    /** False when a pass of this frame already has {@code name}; called before the pass is added. */
    private boolean claimPassName(String name) {
        if (passNames == null && passes.size() >= SCAN_LIMIT) {
            passNames = new HashSet<>();
            for (Pass p : passes) {
                passNames.add(p.name);
            }
        }
        if (passNames != null) {
            return passNames.add(name);
        }
        for (int i = 0; i < passes.size(); i++) {
            if (passes.get(i).name.equals(name)) {
                return false;
            }
        }
        return true;
    }

    private GraphResource add(String name, boolean image, GraphResource.Origin origin, BufferDesc b, ImageDesc i, Object physical,
                              ResourceState entry, Access finalAccess) {
        requireDeclaring("resource", name);
        if (name == null || name.isBlank()) {
            throw new GraphException("every resource needs a name");
        }
        if (!claimResourceName(name)) {
            throw new GraphException("resource '" + name + "' is declared twice in this frame");
        }
        GraphResource r = new GraphResource(resources.size(), name, image, origin, b, i, physical, entry, finalAccess);
        r.trackedEntry = runtime != null && physical != null;
        resources.add(r);
        return r;
    }

    public BufferHandle createBuffer(String name, BufferDesc desc) {
        return new BufferHandle(this, add(name, false, GraphResource.Origin.TRANSIENT, desc, null, null, ResourceState.UNUSED, null).id, 0);
    }

    public ImageHandle createImage(String name, ImageDesc desc) {
        if (!Formats.isColor(desc.format())) {
            throw new GraphException("image '" + name + "': format " + desc.format() + " is not a color format");
        }
        return new ImageHandle(this, add(name, true, GraphResource.Origin.TRANSIENT, null, desc, null, ResourceState.UNUSED, null).id, 0);
    }

    /** A caller-owned buffer; its state across frames is tracked by the runtime. {@code finalAccess} may be null. */
    public BufferHandle importBuffer(String name, GpuBuffer buffer, Access finalAccess) {
        ResourceState entry = runtime == null ? ResourceState.UNUSED : runtime.stateOf(buffer.serial());
        return new BufferHandle(this, add(name, false, GraphResource.Origin.IMPORTED, new BufferDesc(buffer.size(), 0), null, buffer, entry,
                finalAccess).id, 0);
    }

    /**
     * A caller-owned buffer used only inside this graph's passes (scratch kept across frames, such as
     * a reduction's partials): writes to it do not keep a pass alive.
     */
    public BufferHandle importScratch(String name, GpuBuffer buffer) {
        ResourceState entry = runtime == null ? ResourceState.UNUSED : runtime.stateOf(buffer.serial());
        return new BufferHandle(this, add(name, false, GraphResource.Origin.SCRATCH, new BufferDesc(buffer.size(), 0), null, buffer, entry,
                null).id, 0);
    }

    /**
     * A swapchain image: acquired with a semaphore waited at the color-attachment stage, contents
     * discarded, presented after the frame.
     */
    public ImageHandle importSwapchainImage(String name, GpuImage image) {
        ResourceState acquired = new ResourceState(VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, 0, 0, 0, 0, VK_IMAGE_LAYOUT_UNDEFINED);
        GraphResource r = add(name, true, GraphResource.Origin.IMPORTED, null,
                new ImageDesc(image.width(), image.height(), image.format(), image.usage()), image, acquired, Access.PRESENT);
        r.trackedEntry = false;   // each acquire hands the image over anew: its entry is the acquire, not last frame's use
        return new ImageHandle(this, r.id, 0);
    }

    /** A caller-owned image (e.g. an offscreen target; final access may be null). */
    public ImageHandle importImage(String name, GpuImage image, Access finalAccess) {
        ResourceState entry = runtime == null ? ResourceState.UNUSED : runtime.stateOf(image.serial());
        return new ImageHandle(this, add(name, true, GraphResource.Origin.IMPORTED, null,
                new ImageDesc(image.width(), image.height(), image.format(), image.usage()), image, entry, finalAccess).id, 0);
    }

    /**
     * A caller-owned image the caller wrote outside the graph (its own render pass, say): {@code entry} is
     * its last access before this frame's passes, in the same or an earlier submission on this queue (for
     * a colour attachment, {@link Access#COLOR_ATTACHMENT}); the graph inserts the barrier and layout
     * transition from there. {@code finalAccess} may be null.
     */
    public ImageHandle importImage(String name, GpuImage image, Access entry, Access finalAccess) {
        GraphResource r = add(name, true, GraphResource.Origin.IMPORTED, null,
                new ImageDesc(image.width(), image.height(), image.format(), image.usage()), image, ResourceState.after(entry), finalAccess);
        r.trackedEntry = false;   // the caller says where it left the image; Tally did not see its last use
        return new ImageHandle(this, r.id, 0);
    }

    /** For planning without a GPU: an imported buffer described by size, with a given entry state. */
    public BufferHandle importBuffer(String name, long size, ResourceState entry, Access finalAccess) {
        return new BufferHandle(this, add(name, false, GraphResource.Origin.IMPORTED, new BufferDesc(size, 0), null, null, entry, finalAccess).id, 0);
    }

    /** For planning without a GPU: scratch described by size, with a given entry state. */
    public BufferHandle importScratch(String name, long size, ResourceState entry) {
        return new BufferHandle(this, add(name, false, GraphResource.Origin.SCRATCH, new BufferDesc(size, 0), null, null, entry, null).id, 0);
    }

    /** For planning without a GPU: an imported image with a given entry state. */
    public ImageHandle importImage(String name, ImageDesc desc, ResourceState entry, Access finalAccess) {
        if (!Formats.isColor(desc.format())) {
            throw new GraphException("image '" + name + "': format " + desc.format() + " is not a color format");
        }
        return new ImageHandle(this, add(name, true, GraphResource.Origin.IMPORTED, null, desc, null, entry, finalAccess).id, 0);
    }

    /**
     * A history resource in this frame: {@code previous} is last frame's version (read-only; null on the
     * first frame when the history has no initial value), {@code current} is this frame's, to be written.
     */
    public record History(BufferHandle previous, BufferHandle current) {
    }

    public History history(HistoryBuffer history) {
        if (runtime == null) {
            throw new GraphException("history '" + history.name() + "' needs a GraphRuntime");
        }
        if (declaredHistories.contains(history)) {
            throw new GraphException("history '" + history.name() + "' is declared twice in this frame");
        }
        declaredHistories.add(history);
        GpuBuffer cur = history.current();
        GpuBuffer prev = history.previousOrNull();
        BufferHandle current = new BufferHandle(this, add(history.name(), false, GraphResource.Origin.HISTORY_CURRENT, history.desc(), null, cur,
                runtime.stateOf(cur.serial()), null).id, 0);
        BufferHandle previous = prev == null ? null : new BufferHandle(this, add(history.previousName, false,
                GraphResource.Origin.HISTORY_PREVIOUS, history.desc(), null, prev, runtime.stateOf(prev.serial()), null).id, 0);
        return new History(previous, current);
    }

    /** For planning without a GPU: a history pair described by size (previous present). */
    public History historyForPlanning(String name, long size, ResourceState previousEntry, ResourceState currentEntry) {
        BufferHandle current = new BufferHandle(this, add(name, false, GraphResource.Origin.HISTORY_CURRENT, BufferDesc.of(size), null, null,
                currentEntry, null).id, 0);
        BufferHandle previous = new BufferHandle(this, add(name + "@prev", false, GraphResource.Origin.HISTORY_PREVIOUS, BufferDesc.of(size), null,
                null, previousEntry, null).id, 0);
        return new History(previous, current);
    }

    /**
     * Adds a pass. {@code setup} runs now and returns the pass's data (typically the handles it
     * declared); {@code execute} runs when the frame is recorded, with that data.
     */
    public <T> T addPass(String name, PassKind kind, Function<PassBuilder, T> setup, BiConsumer<T, PassContext> execute) {
        if (name == null || name.isBlank()) {
            throw new GraphException("every pass needs a name");
        }
        requireDeclaring("pass", name);
        if (!claimPassName(name)) {
            throw new GraphException("pass '" + name + "' is declared twice in this frame");
        }
        Pass pass = new Pass(passes.size(), name, kind);
        passes.add(pass);
        T data;
        try {
            data = setup.apply(new PassBuilder(this, pass));
        } catch (RuntimeException e) {
            // Its uses may already have advanced resource versions: the frame cannot be compiled.
            failedPass = name;
            throw e;
        }
        pass.executes(data, execute);
        checkAttachments(pass);
        return data;
    }

    private void checkAttachments(Pass pass) {
        int w = -1, h = -1;
        for (int i = 0; i < pass.attachments.size(); i++) {
            Pass.Attachment a = pass.attachments.get(i);
            GraphResource r = resources.get(a.resource());
            if (w < 0) {
                w = r.imageDesc.width();
                h = r.imageDesc.height();
            } else if (w != r.imageDesc.width() || h != r.imageDesc.height()) {
                throw new GraphException("pass '" + pass.name + "': attachment '" + r.name + "' is " + r.imageDesc.width() + "x"
                        + r.imageDesc.height() + " but the pass renders " + w + "x" + h + " (size mismatch)");
            }
        }
        if (pass.kind == PassKind.GRAPHICS && pass.attachments.isEmpty()) {
            throw new GraphException("graphics pass '" + pass.name + "' declares no color attachment");
        }
    }

    String nameOf(Handle h) {
        return graphOf(h) == this ? resources.get(h.resource()).name : "#" + h.resource() + " (of another graph)";
    }

    /** Records one use, validating it; returns the new handle for a write, the same for a read. */
    Handle use(Pass pass, Handle handle, Access access) {
        if (handle == null) {
            throw new GraphException("pass '" + pass.name + "': null handle (a history's previous version is null on the first frame)");
        }
        if (graphOf(handle) != this) {
            throw new GraphException("pass '" + pass.name + "': handle " + handle + " belongs to another frame's graph");
        }
        GraphResource r = resources.get(handle.resource());
        if (r.image != (handle instanceof ImageHandle)) {
            throw new GraphException("pass '" + pass.name + "': handle type does not match resource '" + r.name + "'");
        }
        checkAccessFits(pass, r, access);
        if (handle.version() != r.version) {
            int writer = r.writer(r.version);
            String by = writer >= 0 ? passes.get(writer).name : "?";
            if (access.write()) {
                throw new GraphException("pass '" + pass.name + "' writes '" + r.name + "' v" + handle.version() + ", but pass '" + by
                        + "' already wrote v" + r.version + " from it: two unordered writers; use the handle '" + by + "' returned");
            }
            throw new GraphException("pass '" + pass.name + "' uses a stale handle of '" + r.name + "' (v" + handle.version()
                    + "; current is v" + r.version + ", written by pass '" + by + "')");
        }
        for (Pass.Use u : pass.uses) {
            if (u.resource() == r.id && u.producedVersion() >= 0 && u.producedVersion() == handle.version()) {
                throw new GraphException("pass '" + pass.name + "' reads '" + r.name + "' that it writes itself: a cycle");
            }
        }
        boolean readsContent = !access.write() || access.readAccess() != 0;
        if (readsContent && r.version == 0 && r.origin == GraphResource.Origin.TRANSIENT) {
            throw new GraphException("pass '" + pass.name + "' reads '" + r.name + "', which no pass wrote");
        }
        if (r.origin == GraphResource.Origin.HISTORY_PREVIOUS && access.write()) {
            throw new GraphException("pass '" + pass.name + "' writes '" + r.name + "', last frame's history: it is read-only");
        }
        if (!access.write()) {
            pass.uses.add(useOf(pass, r.id, handle.version(), access, -1));
            return handle;
        }
        r.written(pass.index);
        pass.uses.add(useOf(pass, r.id, handle.version(), access, r.version));
        return handle instanceof ImageHandle ? new ImageHandle(this, r.id, r.version) : new BufferHandle(this, r.id, r.version);
    }

    /**
     * The pass's next use: the same (immutable) object as the last recorded frame's pass at this position
     * made when it matches, as it does every frame of a steady topology, so declaring allocates no use.
     */
    private Pass.Use useOf(Pass pass, int resource, int version, Access access, int producedVersion) {
        FrameGraph last = runtime == null ? null : runtime.lastRecordedGraph();
        int k = pass.uses.size();
        if (last != null && pass.index < last.passes.size() && k < last.passes.get(pass.index).uses.size()) {
            Pass.Use u = last.passes.get(pass.index).uses.get(k);
            if (u.resource() == resource && u.version() == version && u.access() == access && u.producedVersion() == producedVersion) {
                return u;
            }
        }
        return new Pass.Use(resource, version, access, producedVersion);
    }

    private static void checkAccessFits(Pass pass, GraphResource r, Access a) {
        boolean imageOnly = a == Access.COLOR_ATTACHMENT || a == Access.COLOR_ATTACHMENT_LOAD || a == Access.FRAGMENT_SAMPLED || a == Access.COMPUTE_SAMPLED || a == Access.PRESENT;
        if (imageOnly && !r.image) {
            throw new GraphException("pass '" + pass.name + "': access " + a + " needs an image, but '" + r.name + "' is a buffer");
        }
        if (a == Access.HOST_READ || a == Access.PRESENT || a == Access.NONE) {
            throw new GraphException("pass '" + pass.name + "': " + a + " of '" + r.name + "' is not a pass access; give it as the final access of an import");
        }
        boolean computeStage = a.stages() == Access.COMPUTE_READ.stages();
        boolean transferStage = a.stages() == Access.TRANSFER_SRC.stages();
        boolean ok = switch (pass.kind) {
            case COMPUTE -> computeStage;
            case TRANSFER -> transferStage;
            case GRAPHICS -> !computeStage && !transferStage;
        };
        if (!ok) {
            throw new GraphException("pass '" + pass.name + "' is a " + pass.kind.name().toLowerCase() + " pass and cannot use '" + r.name
                    + "' as " + a);
        }
    }

    void requireComplete() {
        if (failedPass != null) {
            throw new GraphException("pass '" + failedPass + "': its setup failed, so this frame graph is incomplete; declare the frame again");
        }
    }

    /** Validates, culls, orders and plans transient memory. Pure: no GPU involved. */
    public GraphPlan compile() {
        requireComplete();
        return GraphCompiler.compile(this);
    }

    public int passCount() {
        return passes.size();
    }

    /**
     * A key equal for two frames with the same passes, uses and resource descriptions: the plan can be
     * reused. Names are labels and take no part (a readback ring imports a different slot each frame
     * under a different name; the plan is the same).
     */
    String topologyKey() {
        return topologyKey(null);
    }

    /**
     * The topology key, or {@code previous} itself when this graph's topology is the one it describes:
     * the walk first compares against {@code previous} character by character, allocating nothing, and
     * builds a new string only when the topology changed.
     */
    String topologyKey(String previous) {
        if (previous != null) {
            KeyMatcher m = new KeyMatcher(previous);
            describeTopology(m);
            if (m.matches()) {
                return previous;
            }
        }
        KeyBuilder b = new KeyBuilder();
        describeTopology(b);
        return b.toString();
    }

    private void describeTopology(KeySink b) {
        for (GraphResource r : resources) {
            b.num(r.origin.ordinal()).ch('|');
            if (r.image) {
                b.num(r.imageDesc.width()).ch('x').num(r.imageDesc.height()).ch(':').num(r.imageDesc.format()).ch(':').num(r.imageDesc.usage());
            } else {
                b.num(r.bufferDesc.size()).ch(':').num(r.bufferDesc.usage());
            }
            b.ch('|').str(r.finalAccess == null ? "-" : r.finalAccess.name()).ch(';');
        }
        for (int i = 0; i < passes.size(); i++) {
            Pass p = passes.get(i);
            b.num(p.kind.ordinal()).ch(p.sideEffect ? '!' : '.').ch(p.asyncCompute ? 'a' : 's').num(p.attachments.size());
            for (int k = 0; k < p.uses.size(); k++) {
                Pass.Use u = p.uses.get(k);
                b.num(u.resource()).ch(':').num(u.version()).ch(':').str(u.access().name()).ch(',');
            }
            b.ch(';');
        }
    }

    /** Where the topology walk writes: a new key, or a comparison with an existing one. */
    private interface KeySink {
        KeySink ch(char c);

        default KeySink str(String s) {
            for (int i = 0; i < s.length(); i++) {
                ch(s.charAt(i));
            }
            return this;
        }

        /** Decimal digits of {@code v}, as StringBuilder.append(long) writes them. */
        default KeySink num(long v) {
            if (v < 0) {
                ch('-');
                if (v == Long.MIN_VALUE) {
                    return str("9223372036854775808");
                }
                v = -v;
            }
            long div = 1;
            while (v / div >= 10) {
                div *= 10;
            }
            for (; div > 0; div /= 10) {
                ch((char) ('0' + v / div % 10));
            }
            return this;
        }
    }

    private static final class KeyBuilder implements KeySink {
        private final StringBuilder b = new StringBuilder(256);

        @Override
        public KeySink ch(char c) {
            b.append(c);
            return this;
        }

        @Override
        public String toString() {
            return b.toString();
        }
    }

    private static final class KeyMatcher implements KeySink {
        private final String key;
        private int at;
        private boolean same = true;

        KeyMatcher(String key) {
            this.key = key;
        }

        @Override
        public KeySink ch(char c) {
            same &= at < key.length() && key.charAt(at) == c;
            at++;
            return this;
        }

        boolean matches() {
            return same && at == key.length();
        }
    }

    List<Pass> passes() {
        return new ArrayList<>(passes);
    }
}
