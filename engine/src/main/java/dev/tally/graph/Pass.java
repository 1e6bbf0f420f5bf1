package dev.tally.graph;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/** A declared pass: its kind, uses and the step that records it. Internal to the graph. */
final class Pass {
    /** One declared use: resource, version read (or overwritten), access, and the version it produces (-1 for reads). */
    record Use(int resource, int version, Access access, int producedVersion) {
    }

    record Attachment(int resource, float[] clear) {
    }

    final int index;
    final String name;
    final PassKind kind;
    final List<Use> uses = new ArrayList<>();
    /** Empty (shared) until a graphics pass declares its first attachment: most passes have none. */
    List<Attachment> attachments = List.of();
    boolean sideEffect;
    /** The pass may run on the async compute lane (a compute pass whose setup asked for it). */
    boolean asyncCompute;
    /** What the setup returned and the execute step it is handed to (kept as they are: no closure per pass and frame). */
    private Object data;
    private BiConsumer<Object, PassContext> execute;

    Pass(int index, String name, PassKind kind) {
        this.index = index;
        this.name = name;
        this.kind = kind;
    }

    @SuppressWarnings("unchecked")
    <T> void executes(T setupData, BiConsumer<T, PassContext> step) {
        this.data = setupData;
        this.execute = (BiConsumer<Object, PassContext>) step;
    }

    /** Records the pass's commands: its execute step with its setup's data. */
    void record(PassContext ctx) {
        execute.accept(data, ctx);
    }
}
