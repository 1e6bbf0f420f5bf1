package dev.tally.internal.graph;

import dev.tally.graph.PassContext;

import dev.tally.graph.Access;

import dev.tally.graph.PassKind;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * A declared pass: its kind, uses and the step that records it. Internal to the graph. A graph reuses its
 * passes from frame to frame ({@link #init}): the lists keep their storage.
 */
final class Pass {
    /** One declared use: resource, version read (or overwritten), access, and the version it produces (-1 for reads). */
    record Use(int resource, int version, Access access, int producedVersion) {
    }

    /** A colour attachment: its resource and clear colour (RGBA), or null when loaded. Reused with its pass. */
    static final class Attachment {
        private int resource;
        private final float[] clearColor = new float[4];
        private boolean cleared;

        Attachment set(int resource, float[] clear) {
            this.resource = resource;
            this.cleared = clear != null;
            if (clear != null) {
                System.arraycopy(clear, 0, clearColor, 0, 4);
            }
            return this;
        }

        int resource() {
            return resource;
        }

        /** The clear colour, or null for a loaded attachment; read while recording, never kept. */
        float[] clear() {
            return cleared ? clearColor : null;
        }
    }

    final int index;
    String name;
    PassKind kind;
    final List<Use> uses = new ReusedSlots<>(8);
    /** The resource of each of {@link #uses}, in order: what the execute step may ask for, scanned without reading the uses. */
    private int[] usedResources = new int[8];
    /** This frame's attachments (a prefix of {@link #attachmentPool}). */
    final List<Attachment> attachments = new ReusedSlots<>(2);
    private final List<Attachment> attachmentPool = new ArrayList<>(2);
    boolean sideEffect;
    /** The pass may run on the async compute lane (a compute pass whose setup asked for it). */
    boolean asyncCompute;
    /** What the setup returned and the execute step it is handed to (kept as they are: no closure per pass and frame). */
    private Object data;
    private BiConsumer<Object, PassContext> execute;
    /** What this pass's setup sees; made once, as the pass is. */
    PassSetup builder;
    /**
     * The pass at this position in the last recorded frame, or null: a frame of the same topology takes its (immutable)
     * uses instead of making new ones. Set when the pass is declared.
     */
    Pass lastRecorded;

    Pass(int index) {
        this.index = index;
    }

    /** Declares the pass in this slot anew. */
    Pass init(String name, PassKind kind) {
        // References are written only where they change: a pooled pass declared as in its last frame writes none (each
        // reference store into an old object costs the collector's write barrier). The execute step and its data are
        // set by executes() once the setup returns; a pass whose setup threw keeps an earlier frame's, and its graph
        // refuses to be recorded (GraphDeclaration.requireComplete).
        if (this.name != name) {
            this.name = name;
        }
        if (this.kind != kind) {
            this.kind = kind;
        }
        uses.clear();
        attachments.clear();
        sideEffect = false;
        asyncCompute = false;
        return this;
    }

    /** Adds a use of the pass's setup. */
    void use(Use u) {
        int k = uses.size();
        if (k == usedResources.length) {
            usedResources = java.util.Arrays.copyOf(usedResources, 2 * k);
        }
        usedResources[k] = u.resource();
        uses.add(u);
    }

    /** Whether this frame's setup declared a use of {@code resource}. */
    boolean uses(int resource) {
        int[] used = usedResources;
        for (int k = 0, n = uses.size(); k < n; k++) {
            if (used[k] == resource) {
                return true;
            }
        }
        return false;
    }

    /** Adds an attachment, reusing this slot's object from an earlier frame. */
    void attach(int resource, float[] clear) {
        int k = attachments.size();
        if (k == attachmentPool.size()) {
            attachmentPool.add(new Attachment());
        }
        attachments.add(attachmentPool.get(k).set(resource, clear));
    }

    @SuppressWarnings("unchecked")
    <T> void executes(T setupData, BiConsumer<T, PassContext> step) {
        if (data != setupData) {
            data = setupData;
        }
        if (execute != step) {
            execute = (BiConsumer<Object, PassContext>) step;
        }
    }

    /** Records the pass's commands: its execute step with its setup's data. */
    void record(PassRecording ctx) {
        execute.accept(data, ctx);
    }
}
