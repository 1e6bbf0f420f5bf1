package dev.tally.internal.graph;

import dev.tally.graph.FrameGraph;
import dev.tally.graph.PassBuilder;
import dev.tally.graph.PassContext;

import dev.tally.graph.ImageHandle;

import dev.tally.graph.BufferHandle;

import dev.tally.graph.Handle;

import dev.tally.vk.GpuBuffer;
import dev.tally.vk.GpuImage;

import dev.tally.graph.Access;

import dev.tally.graph.GraphException;

import dev.tally.graph.PassKind;

import dev.tally.graph.ImageDesc;

import dev.tally.graph.BufferDesc;

import dev.tally.internal.vk.ResourceState;

import dev.tally.internal.vk.TrackedBuffer;
import dev.tally.internal.vk.TrackedImage;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Function;

import static org.lwjgl.vulkan.VK10.VK_IMAGE_LAYOUT_UNDEFINED;
import static org.lwjgl.vulkan.VK13.VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;

/**
 * One frame's declaration: resources and passes, each pass with a setup step (run now, declares
 * reads and writes) and an execute step (run later, records commands). {@link #compile()} validates,
 * culls, orders and plans memory; a {@link GraphRuntime} records it. Declaring touches no GPU.
 * A runtime reuses a few graphs from frame to frame ({@link #reset}): each declaration is a new
 * generation, its resources, passes and handles are the earlier ones' objects declared anew, and a
 * handle of an earlier generation is refused.
 */
public final class GraphDeclaration implements FrameGraph {
    /** The implementation behind {@code g}; a graph not from a Tally frame is refused in one line. */
    public static GraphDeclaration of(FrameGraph g) {
        if (g instanceof GraphDeclaration d) {
            return d;
        }
        throw new IllegalArgumentException("expected the FrameGraph of a Tally frame (Frame.graph()), got "
                + (g == null ? "null" : g.getClass().getName()));
    }

    /** This frame's resources and passes: prefixes of the pools, which keep every object declared so far. */
    final List<GraphResource> resources;
    final List<Pass> passes;
    private final List<GraphResource> resourcePool = new ArrayList<>();
    private final List<Pass> passPool = new ArrayList<>();
    /** This frame's history pairs, kept to be handed out again while their handles are the same objects. */
    private final List<History> historyPool = new ArrayList<>();
    private long generation = 1;
    private final UniqueNames resourceNames = new UniqueNames();
    private final UniqueNames passNames = new UniqueNames();
    private final DeclaredObjects declaredObjects = new DeclaredObjects();
    /** Histories this frame declared: only these advance when it is recorded. */
    final List<HistoryBuffer> declaredHistories = new ArrayList<>();
    private String failedPass;
    private final GraphRuntime runtime;
    /** The frame this graph declares, set by the runtime that began it; its ticket is made only when asked for. */
    private long number;
    private long timeline;
    private int framesInFlight;
    private FrameTicket ticket;
    /** Set once the frame is recorded: what is declared later would never run (and its readback never arrive). */
    private boolean recorded;

    /** A graph with no GPU behind it, for planning and tests. */
    public GraphDeclaration() {
        this(null, 10, 10);
        this.framesInFlight = 1;
    }

    /** {@code resources} and {@code passes}: how many to expect, so that the lists need not grow. */
    GraphDeclaration(GraphRuntime runtime, int resources, int passes) {
        this.resources = new ReusedSlots<>(resources);
        this.passes = new ReusedSlots<>(passes);
        this.runtime = runtime;
    }

    /**
     * Begins declaring frame {@code next} in this graph: a new generation (every handle issued so far is
     * refused from now on, unless issued again), nothing declared. The storage stays.
     */
    void reset(long frameNumber, long timelineValue, int framesInFlight) {
        generation++;
        resources.clear();
        passes.clear();
        declaredHistories.clear();
        resourceNames.reset();
        passNames.reset();
        declaredObjects.reset();
        failedPass = null;
        recorded = false;   // a reused graph declares its new frame from the start
        this.number = frameNumber;
        this.timeline = timelineValue;
        this.framesInFlight = framesInFlight;
        this.ticket = null;
    }

    /** The declaration this graph holds now (one more each {@link #reset}). */
    long generation() {
        return generation;
    }
    /** The runtime that began this frame (null for a graph with no runtime behind it). */
    GraphRuntime runtime() {
        return runtime;
    }

    /**
     * Refuses a declaration ({@code what} named {@code name}: a pass, a resource, a capture) once the frame
     * was recorded: it would never reach the command buffer.
     */
    public void requireDeclaring(String what, String name) {
        if (recorded) {
            throw new GraphException("frame " + frame() + ": " + what + " '" + name + "' declared after frame.record(...);"
                    + " declare every pass, import and capture of a frame before recording it");
        }
    }

    /** The frame was recorded: nothing more may be declared on it. */
    void markRecorded() {
        recorded = true;
    }

    /** The number of the frame this graph declares (0 for a graph with no GPU behind it). */
    public long frame() {
        return number;
    }

    /** The frame this graph declares: number, slot among the frames in flight, timeline value. */
    public FrameTicket ticket() {
        if (ticket == null) {   // made when asked for (readback rings do): a frame of the graph alone allocates none
            ticket = FrameTicket.of(number, timeline, framesInFlight);
        }
        return ticket;
    }

    /** The timeline value this frame's submission signals; the GPU is done with the frame once Tally's timeline reaches it. */
    public long timelineValue() {
        return timeline;
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
        if (!owns(h)) {
            throw new GraphException(what + ": " + foreign(h));
        }
        return resources.get(h.resource());
    }

    /** Why {@code h}, not {@link #owns owned}, cannot be used here: the one line every refusal of a foreign handle gives. */
    String foreign(Handle h) {
        return "handle " + h + " is not one of frame " + frame() + "'s graph's handles (it is an earlier frame's, or another graph's): a handle "
                + "lasts one frame's graph; pass the one this frame's graph gave";
    }

    /** The error for a handle this graph did not issue in its current declaration ({@link #owns} false), naming {@code what} was given it. */
    public GraphException notOwned(Handle h, String what) {
        return new GraphException(what + ": " + (h == null ? "null handle" : foreign(h)));
    }

    /** {@code h} was issued by this graph in its current declaration (not by another graph, nor in an earlier frame of this one). */
    public boolean owns(Handle h) {
        return h instanceof IssuedHandle issued && issued.graph == this && issued.generation == generation;
    }

    static Object graphOf(Handle h) {
        return h instanceof IssuedHandle issued ? issued.graph : null;
    }

    /** The entry state of an acquired swapchain image: its semaphore is waited at the colour-attachment stage, contents discarded. */
    private static final ResourceState ACQUIRED = new ResourceState(VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, 0, 0, 0, 0,
            VK_IMAGE_LAYOUT_UNDEFINED);


    private GraphResource add(String name, boolean image, GraphResource.Origin origin, BufferDesc b, ImageDesc i, Object physical,
                              ResourceState entry, Access finalAccess) {
        requireDeclaring("resource", name);
        if (blank(name)) {
            throw new GraphException("every resource needs a name");
        }
        int holder = declaredObjects.resourceOf(physical);   // asked for every resource (null: none behind it), in order
        if (holder >= 0 && !resources.get(holder).name.equals(name)) {
            // One object, one resource: two names for it would keep two states, and no barrier between their uses.
            throw new GraphException("resource '" + name + "': its " + (image ? "image" : "buffer") + " is already in this frame as '"
                    + resources.get(holder).name + "'; use that handle (or the handle its last pass returned)");
        }
        if (!resourceNames.claim(name)) {
            throw new GraphException("resource '" + name + "' is declared twice in this frame; a name is one resource a frame"
                    + " (a node or ring adds its passes once a frame: make a second one for a second use)");
        }
        declaredObjects.declare(physical, resources.size());
        GraphResource r = slot().init(name, image, origin, b, i, physical, entry, finalAccess);
        r.trackedEntry = runtime != null && physical != null;
        resources.add(r);
        return r;
    }

    /**
     * Whether {@code name} is null, empty or only white space. A name is checked at each declaration, every frame: one that
     * starts with a visible character (every real one) is told from its first character, without scanning the rest.
     */
    static boolean blank(String name) {
        return name == null || name.isEmpty() || Character.isWhitespace(name.charAt(0)) && name.isBlank();
    }

    /** The pooled pass at {@code n} (declared this frame or in an earlier one), or null past the pool. */
    Pass pooledPass(int n) {
        return n < passPool.size() ? passPool.get(n) : null;
    }

    /** The next resource slot: the object an earlier frame declared there, or a new one. */
    private GraphResource slot() {
        int n = resources.size();
        if (n == resourcePool.size()) {
            resourcePool.add(new GraphResource(n));
        }
        return resourcePool.get(n);
    }

    /** The handle of {@code r}'s version {@code v} in this declaration. */
    private Handle handle(GraphResource r, int v) {
        return r.handle(this, v, generation);
    }

    private BufferHandle bufferHandle(GraphResource r) {
        return (BufferHandle) handle(r, 0);
    }

    private ImageHandle imageHandle(GraphResource r) {
        return (ImageHandle) handle(r, 0);
    }

    /** A new write's handle: version {@code r.version} of {@code r}. */
    Handle written(GraphResource r) {
        return handle(r, r.version);
    }

    /** A buffer description of {@code size} bytes: the next slot's, kept from an earlier frame, when it is the same. */
    BufferDesc importedDesc(long size) {
        return importedDesc(size, 0);
    }

    /** As {@link #importedDesc(long)}, with the buffer's usage (0: not known). */
    BufferDesc importedDesc(long size, int usage) {
        int n = resources.size();
        BufferDesc d = n < resourcePool.size() ? resourcePool.get(n).bufferDesc : null;
        return d != null && d.size() == size && d.usage() == usage ? d : new BufferDesc(size, usage);
    }

    /** The description of {@code image}: the next slot's, kept from an earlier frame, when it is the same. */
    private ImageDesc importedDesc(TrackedImage image) {
        int n = resources.size();
        ImageDesc d = n < resourcePool.size() ? resourcePool.get(n).imageDesc : null;
        return d != null && d.width() == image.width() && d.height() == image.height() && d.format() == image.format() && d.usage() == image.usage()
                ? d : new ImageDesc(image.width(), image.height(), image.format(), image.usage());
    }

    public BufferHandle createBuffer(String name, BufferDesc desc) {
        return bufferHandle(add(name, false, GraphResource.Origin.TRANSIENT, desc, null, null, ResourceState.UNUSED, null));
    }

    public ImageHandle createImage(String name, ImageDesc desc) {
        if (!Formats.isColor(desc.format())) {
            throw new GraphException("image '" + name + "': format " + desc.format() + " is not a color format");
        }
        return imageHandle(add(name, true, GraphResource.Origin.TRANSIENT, null, desc, null, ResourceState.UNUSED, null));
    }

    /** A caller-owned buffer; the graph starts from the state the buffer keeps, and leaves its final state there. {@code finalAccess} may be null. */
    public BufferHandle importBuffer(String name, GpuBuffer gpuBuffer, Access finalAccess) {
        TrackedBuffer buffer = TrackedBuffer.of(gpuBuffer, "importBuffer", name);
        return bufferHandle(add(name, false, GraphResource.Origin.IMPORTED, importedDesc(buffer.size(), buffer.usage()), null, buffer, buffer.state(),
                finalAccess));
    }

    /**
     * A caller-owned buffer the caller wrote outside the graph: {@code entry} is its last access before this frame's passes,
     * in the same or an earlier submission on this queue; the graph inserts the barrier from there. {@code finalAccess} may be null.
     */
    public BufferHandle importBuffer(String name, GpuBuffer gpuBuffer, Access entry, Access finalAccess) {
        TrackedBuffer buffer = TrackedBuffer.of(gpuBuffer, "importBuffer", name);
        GraphResource r = add(name, false, GraphResource.Origin.IMPORTED, importedDesc(buffer.size(), buffer.usage()), null, buffer,
                entryState(requireEntry(entry, "importBuffer", name)), finalAccess);
        r.trackedEntry = false;   // the caller says where it left the buffer; Tally did not see its last use
        return bufferHandle(r);
    }

    private static Access requireEntry(Access entry, String call, String name) {
        if (entry == null) {
            throw new GraphException(call + " '" + name + "': entry access is null; give the caller's last access to it "
                    + "(Access.TRANSFER_DST after a fill or copy), or use the overload without entry when only Tally's passes touch it");
        }
        return entry;
    }

    /**
     * A caller-owned buffer used only inside this graph's passes (scratch kept across frames, such as
     * a reduction's partials): writes to it do not keep a pass alive.
     */
    public BufferHandle importScratch(String name, GpuBuffer gpuBuffer) {
        TrackedBuffer buffer = TrackedBuffer.of(gpuBuffer, "importScratch", name);
        return bufferHandle(add(name, false, GraphResource.Origin.SCRATCH, importedDesc(buffer.size(), buffer.usage()), null, buffer, buffer.state(),
                null));
    }

    /**
     * A swapchain image: acquired with a semaphore waited at the color-attachment stage, contents
     * discarded, presented after the frame.
     */
    public ImageHandle importSwapchainImage(String name, GpuImage gpuImage) {
        TrackedImage image = TrackedImage.of(gpuImage, "importSwapchainImage", name);
        GraphResource r = add(name, true, GraphResource.Origin.IMPORTED, null, importedDesc(image), image, ACQUIRED, Access.PRESENT);
        r.trackedEntry = false;   // each acquire hands the image over anew: its entry is the acquire, not last frame's use
        return imageHandle(r);
    }

    /** A caller-owned image (e.g. an offscreen target; final access may be null). */
    public ImageHandle importImage(String name, GpuImage gpuImage, Access finalAccess) {
        TrackedImage image = TrackedImage.of(gpuImage, "importImage", name);
        return imageHandle(add(name, true, GraphResource.Origin.IMPORTED, null, importedDesc(image), image, image.state(), finalAccess));
    }

    /**
     * A caller-owned image the caller wrote outside the graph (its own render pass, say): {@code entry} is
     * its last access before this frame's passes, in the same or an earlier submission on this queue (for
     * a colour attachment, {@link Access#COLOR_ATTACHMENT}); the graph inserts the barrier and layout
     * transition from there. {@code finalAccess} may be null.
     */
    public ImageHandle importImage(String name, GpuImage gpuImage, Access entry, Access finalAccess) {
        TrackedImage image = TrackedImage.of(gpuImage, "importImage", name);
        GraphResource r = add(name, true, GraphResource.Origin.IMPORTED, null, importedDesc(image), image, entryState(requireEntry(entry, "importImage", name)),
                finalAccess);
        r.trackedEntry = false;   // the caller says where it left the image; Tally did not see its last use
        return imageHandle(r);
    }

    /**
     * Entry states of the accesses hosts declare, made once each and kept: accesses are a handful of constants, so the
     * table stops growing after the first frames, and a host declaring many kinds of entry makes no state per frame.
     */
    private Access[] entryAccesses = new Access[8];
    private ResourceState[] entryStates = new ResourceState[8];
    private int entries;

    private ResourceState entryState(Access entry) {
        for (int i = 0; i < entries; i++) {
            if (entryAccesses[i] == entry) {
                return entryStates[i];
            }
        }
        if (entries == entryAccesses.length) {
            entryAccesses = java.util.Arrays.copyOf(entryAccesses, 2 * entries);
            entryStates = java.util.Arrays.copyOf(entryStates, 2 * entries);
        }
        ResourceState s = ResourceState.after(entry);
        entryAccesses[entries] = entry;
        entryStates[entries] = s;
        entries++;
        return s;
    }

    /** A buffer described by its size and entry state, with no GPU object behind it (executed on a backend without a GPU). */
    BufferHandle importDescribed(String name, GraphResource.Origin origin, BufferDesc desc, ResourceState entry, Access finalAccess) {
        return bufferHandle(add(name, false, origin, desc, null, null, entry, finalAccess));
    }

    /** An imported image described by its description and entry state, with no GPU object behind it. */
    ImageHandle importDescribed(String name, ImageDesc desc, ResourceState entry, Access finalAccess) {
        if (!Formats.isColor(desc.format())) {
            throw new GraphException("image '" + name + "': format " + desc.format() + " is not a color format");
        }
        return imageHandle(add(name, true, GraphResource.Origin.IMPORTED, null, desc, null, entry, finalAccess));
    }

    /**
     * A history resource in this frame: {@code previous} is last frame's version (read-only; null on the
     * first frame when the history has no initial value), {@code current} is this frame's, to be written.
     */
    public record History(BufferHandle previous, BufferHandle current) {
    }

    public History history(HistoryBuffer history) {
        requireDeclaring("history", history.name());   // before the history is counted as declared
        if (runtime == null) {
            throw new GraphException("history '" + history.name() + "' needs a GraphRuntime");
        }
        if (declaredHistories.contains(history)) {
            throw new GraphException("history '" + history.name() + "' is declared twice in this frame");
        }
        declaredHistories.add(history);
        TrackedBuffer cur = history.current();
        TrackedBuffer prev = history.previousOrNull();
        BufferHandle current = bufferHandle(add(history.name(), false, GraphResource.Origin.HISTORY_CURRENT, history.desc(), null, cur,
                cur.state(), null));
        BufferHandle previous = prev == null ? null : bufferHandle(add(history.previousName, false,
                GraphResource.Origin.HISTORY_PREVIOUS, history.desc(), null, prev, prev.state(), null));
        // The pair handed out for this history before, while its handles are the same objects (they are, frame after frame).
        int k = declaredHistories.size() - 1;
        if (k == historyPool.size()) {
            historyPool.add(null);
        }
        History pair = historyPool.get(k);
        if (pair == null || pair.previous() != previous || pair.current() != current) {
            pair = new History(previous, current);
            historyPool.set(k, pair);
        }
        return pair;
    }

    /**
     * Adds a pass. {@code setup} runs now and returns the pass's data (typically the handles it
     * declared); {@code execute} runs when the frame is recorded, with that data.
     */
    public <T> T addPass(String name, PassKind kind, Function<PassBuilder, T> setup, BiConsumer<T, PassContext> execute) {
        if (blank(name)) {
            throw new GraphException("every pass needs a name");
        }
        requireDeclaring("pass", name);
        if (!passNames.claim(name)) {
            throw new GraphException("pass '" + name + "' is declared twice in this frame");
        }
        int n = passes.size();
        if (n == passPool.size()) {
            Pass made = new Pass(n);
            made.builder = new PassSetup(this, made);
            passPool.add(made);
        }
        Pass pass = passPool.get(n).init(name, kind);
        GraphDeclaration last = lastRecorded();
        Pass lastPass = last != null && last != this && n < last.passes.size() ? last.passes.get(n) : null;
        if (pass.lastRecorded != lastPass) {
            pass.lastRecorded = lastPass;   // written only when it changes, as init's references are
        }
        passes.add(pass);
        T data;
        try {
            data = setup.apply(pass.builder);
        } catch (Throwable e) {
            // Its uses may already have advanced resource versions: the frame cannot be compiled. Any throwable, an Error too:
            // the pooled pass still holds an earlier frame's execute step and data, which must never be recorded for this one.
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
        return owns(h) ? resources.get(h.resource()).name : "#" + h.resource() + " (of another graph)";
    }

    /** Records one use, validating it; returns the new handle for a write, the same for a read. */
    Handle use(Pass pass, Handle handle, Access access) {
        return PassUses.use(this, pass, handle, access);
    }

    /** The last recorded frame (whose immutable uses a frame of the same topology shares), or null. */
    GraphDeclaration lastRecorded() {
        return runtime == null ? null : runtime.lastRecordedGraph();
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
        return TopologyKey.of(this, previous);
    }

    List<Pass> passes() {
        return new ArrayList<>(passes);
    }
}
