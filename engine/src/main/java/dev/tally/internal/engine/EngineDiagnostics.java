package dev.tally.internal.engine;

import dev.tally.Diagnostics;
import dev.tally.internal.vk.VulkanContext;
import dev.tally.internal.vk.Waits;

/** The exported counters, read from the context's validation log, memory statistics and wait counts. */
final class EngineDiagnostics implements Diagnostics {
    private final VulkanContext ctx;

    EngineDiagnostics(VulkanContext ctx) {
        this.ctx = ctx;
    }

    @Override public boolean validationEnabled() { return ctx.options().validation() && ctx.ownsDevice(); }
    @Override public long validationErrors() { return ctx.validationLog().errors(); }
    @Override public long validationWarnings() { return ctx.validationLog().warnings(); }
    @Override public long validationMessages() { return ctx.validationLog().total(); }
    @Override public long liveAllocations() { return ctx.liveAllocations()[0]; }
    @Override public long liveAllocationBytes() { return ctx.liveAllocations()[1]; }
    @Override public long objectsCreated() { return ctx.objectsCreated(); }
    @Override public long pacingWaits() { return ctx.waits().count(Waits.Cause.PACING); }
    @Override public double pacingWaitMicros() { return ctx.waits().micros(Waits.Cause.PACING); }
    @Override public long otherWaits() { return ctx.waits().count(Waits.Cause.OTHER); }
}
