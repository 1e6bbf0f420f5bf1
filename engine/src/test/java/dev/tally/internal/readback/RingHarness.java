package dev.tally.internal.readback;

import dev.tally.internal.engine.Engine;

import dev.tally.Frame;
import dev.tally.FrameCommands;
import dev.tally.Tally;
import dev.tally.config.Config;
import dev.tally.graph.Access;
import dev.tally.graph.BufferDesc;
import dev.tally.graph.BufferHandle;
import dev.tally.graph.FrameGraph;
import dev.tally.graph.PassKind;
import dev.tally.internal.shader.ComputeKernel;
import dev.tally.internal.shader.DescriptorSets;
import org.lwjgl.system.MemoryStack;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/** A validated Tally, per-frame command buffers and a kernel writing (frame, 2 frame + 1, a, b) into a 16-byte buffer. */
final class RingHarness implements AutoCloseable {
    final Tally tally;
    final FrameCommands commands;
    final ComputeKernel writer;
    /** Timeline value of each frame submitted so far, by frame number. */
    final List<Long> values = new ArrayList<>();

    RingHarness(String... overrides) {
        List<String> all = new ArrayList<>(List.of("validation.enabled=true"));
        all.addAll(List.of(overrides));
        tally = Tally.open(Config.load(null, all));
        commands = tally.frameCommands();
        writer = new ComputeKernel(Engine.of(tally).context(), Engine.of(tally).compiler(), Engine.of(tally).pipelineCache(), "test_frame.comp", Map.of(), null, 1, 12);
    }

    /** The 16 bytes (frame, 2 frame + 1, a, b) written by a compute pass of {@code g}. */
    BufferHandle stats(FrameGraph g, int a, int b) {
        int f = (int) g.frame();
        return g.addPass("write", PassKind.COMPUTE, pb -> pb.write(pb.create("stats", BufferDesc.of(16)), Access.COMPUTE_WRITE), (h, c) -> {
            try (MemoryStack stack = MemoryStack.stackPush()) {
                writer.dispatch(c.cmd(), List.of(DescriptorSets.Range.of(c.buffer(h), 0, 16)),
                        stack.malloc(12).putInt(0, f).putInt(4, a).putInt(8, b), 1, 1);
            }
        });
    }

    /** Begins a frame (rings deliver here), lets {@code declare} add passes, records and submits it. */
    Frame frame(BiConsumer<Frame, FrameGraph> declare) {
        Frame frame = tally.beginFrame();
        var cmd = commands.begin(frame);
        declare.accept(frame, frame.graph());
        frame.record(cmd);
        commands.end(cmd);
        frame.submit(cmd);
        values.add(frame.timelineValue());
        return frame;
    }

    /** The newest frame whose timeline value is at most {@code completed}, or -1. */
    long newestCompleteFrame(long completed) {
        for (int f = values.size() - 1; f >= 0; f--) {
            if (values.get(f) <= completed) {
                return f;
            }
        }
        return -1;
    }

    int validationMessages() {
        Engine.of(tally).context().waitIdle();
        return Engine.of(tally).context().validationLog().total();
    }

    String validationText() {
        return Engine.of(tally).context().validationLog().messages().toString();
    }

    @Override
    public void close() {
        writer.close();
        commands.close();
        tally.close();
    }
}
