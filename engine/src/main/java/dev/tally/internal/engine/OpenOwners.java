package dev.tally.internal.engine;

import dev.tally.internal.vk.VulkanContext;

import java.util.ArrayList;
import java.util.List;

/**
 * What Tally handed a host that owns Vulkan objects but none of the allocator's memory (kernels' pipelines, command
 * pools), while it is open. One still open at {@code Tally.close} is named in one line of the validation log and
 * closed there, before the device goes: otherwise the only word of it would be the layer's, about raw handles. (Owners
 * of memory are counted by the allocator's own report.)
 */
final class OpenOwners {
    private final List<AutoCloseable> owners = new ArrayList<>();
    private final List<String> names = new ArrayList<>();

    /** {@return {@code owner}, recorded under {@code name} until {@link #closed}} */
    synchronized <T extends AutoCloseable> T add(String name, T owner) {
        owners.add(owner);
        names.add(name);
        return owner;
    }

    /** {@code owner} was closed by its holder. */
    synchronized void closed(AutoCloseable owner) {
        for (int i = 0; i < owners.size(); i++) {
            if (owners.get(i) == owner) {
                owners.remove(i);
                names.remove(i);
                return;
            }
        }
    }

    /** Names the owners still open in one line of {@code ctx}'s validation log, then closes them (last made first). */
    void closeRemaining(VulkanContext ctx) throws Exception {
        List<AutoCloseable> left;
        List<String> leftNames;
        synchronized (this) {
            left = new ArrayList<>(owners);
            leftNames = new ArrayList<>(names);
        }
        if (left.isEmpty()) {
            return;
        }
        ctx.reportAtClose("tally: " + left.size() + " object(s) not closed before Tally.close, closed there: " + String.join(", ", leftNames)
                + "; close what Tally made before closing Tally");
        Exception first = null;
        for (int i = left.size() - 1; i >= 0; i--) {
            try {
                left.get(i).close();
            } catch (Exception e) {
                if (first == null) {
                    first = e;
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
