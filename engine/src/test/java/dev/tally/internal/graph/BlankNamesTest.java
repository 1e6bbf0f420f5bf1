package dev.tally.internal.graph;

import dev.tally.graph.Access;
import dev.tally.graph.GraphException;
import dev.tally.graph.PassKind;
import dev.tally.internal.vk.ResourceState;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A pass or resource needs a name with something visible in it: null, empty and all-white-space names are refused with one
 * line, and a name that only starts or ends with white space is a name. The check that tells a name from its first
 * character agrees with String.isBlank on every name tried. No GPU.
 */
class BlankNamesTest {
    private static final String[] NAMES = {null, "", " ", "\t", "  \n ", "\u2003", "\u00a0", " x", "\tpass", "x ", "pass", "\u2003x", "\u00a0 "};

    @Test
    void theQuickCheckAgreesWithIsBlank() {
        for (String name : NAMES) {
            assertEquals(name == null || name.isBlank(), GraphDeclaration.blank(name), "blank(" + (name == null ? null : Arrays.toString(name.toCharArray())) + ")");
        }
    }

    @Test
    void blankPassAndResourceNamesAreRefusedAndOthersAccepted() {
        for (String name : NAMES) {
            GraphDeclaration g = new GraphDeclaration();
            if (name == null || name.isBlank()) {
                GraphException pass = assertThrows(GraphException.class, () -> g.addPass(name, PassKind.COMPUTE, b -> null, Planning.nothing()));
                assertEquals("every pass needs a name", pass.getMessage());
                GraphException resource = assertThrows(GraphException.class,
                        () -> Planning.importBuffer(g, name, 64, ResourceState.UNUSED, Access.HOST_READ));
                assertEquals("every resource needs a name", resource.getMessage());
            } else {
                g.addPass(name, PassKind.COMPUTE, b -> null, Planning.nothing());
                Planning.importBuffer(g, name, 64, ResourceState.UNUSED, Access.HOST_READ);
            }
        }
    }
}
