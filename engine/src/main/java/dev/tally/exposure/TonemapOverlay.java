package dev.tally.exposure;

import dev.tally.graph.PassBuilder;
import dev.tally.graph.PassContext;
import dev.tally.shader.BindingType;
import dev.tally.shader.DescriptorSets;

import java.util.List;
import java.util.Map;

/**
 * Work composited inside the tonemap's compute pass before its single store (the HUD): a variant of
 * tonemap.comp named by its define set, the bindings it adds after the tonemap's three, and the
 * resources it reads, declared in the tonemap's pass so the graph orders their writers before it.
 */
public interface TonemapOverlay {
    /** The defines tonemap.comp compiles with for this overlay, on top of its own; the same map every frame. */
    Map<String, String> defines();

    /** The types of the overlay's bindings, bound from binding 3 on. */
    List<BindingType> bindingTypes();

    /** Declares what the overlay reads (at declaration, inside the tonemap's pass). */
    void declare(PassBuilder b);

    /** The overlay's bindings when the pass is recorded, in {@link #bindingTypes()} order. */
    List<DescriptorSets.Binding> bindings(PassContext c);
}
