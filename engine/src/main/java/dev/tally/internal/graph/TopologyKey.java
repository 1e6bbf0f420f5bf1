package dev.tally.internal.graph;

import dev.tally.graph.Access;
import dev.tally.graph.BufferDesc;
import dev.tally.graph.ImageDesc;

/**
 * A frame's topology as a string: equal for two frames with the same passes, uses and resource
 * descriptions, so that the compiled plan can be reused. Names are labels and take no part (a readback
 * ring imports a different slot each frame under a different name; the plan is the same). Given the
 * previous frame's key, the walk first compares against it character by character, allocating nothing,
 * and builds a new string only when the topology changed.
 */
final class TopologyKey {
    private TopologyKey() {
    }

    /** The key of {@code g}, or {@code previous} itself when it describes {@code g}'s topology. */
    static String of(GraphDeclaration g, String previous) {
        return of(g, previous, new KeyMatcher());
    }

    /** As {@link #of(GraphDeclaration, String)}, comparing through {@code m} (kept by the caller from frame to frame). */
    static String of(GraphDeclaration g, String previous, KeyMatcher m) {
        if (previous != null) {
            m.reset(previous);
            describe(g, m);
            if (m.matches()) {
                return previous;
            }
        }
        KeyBuilder b = new KeyBuilder();
        describe(g, b);
        return b.toString();
    }

    /**
     * Whether {@code g} has {@code last}'s topology by what the key describes, compared field by field (uses by identity
     * first: a frame of the same topology shares the last recorded frame's use objects). Stricter than the key where it
     * compares descriptions whole, so that true means equal keys; false means only that the walk must tell.
     */
    static boolean sameTopology(GraphDeclaration g, GraphDeclaration last) {
        if (last == null || g.resources.size() != last.resources.size() || g.passes.size() != last.passes.size()) {
            return false;
        }
        for (int i = 0; i < g.resources.size(); i++) {
            GraphResource r = g.resources.get(i), o = last.resources.get(i);
            if (r.origin != o.origin || r.image != o.image || !sameAccess(r.finalAccess, o.finalAccess)
                    || (r.image ? !sameDesc(r.imageDesc, o.imageDesc) : !sameDesc(r.bufferDesc, o.bufferDesc))) {
                return false;
            }
        }
        for (int i = 0; i < g.passes.size(); i++) {
            Pass p = g.passes.get(i), o = last.passes.get(i);
            if (p.kind != o.kind || p.sideEffect != o.sideEffect || p.asyncCompute != o.asyncCompute || p.attachments.size() != o.attachments.size()
                    || p.uses.size() != o.uses.size()) {
                return false;
            }
            for (int k = 0; k < p.uses.size(); k++) {
                Pass.Use u = p.uses.get(k), v = o.uses.get(k);
                if (u != v && (u.resource() != v.resource() || u.version() != v.version() || !sameAccess(u.access(), v.access()))) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Field by field, as the records' own equals would: two graphs declare equal descriptions as different objects, and the
     * generated equals goes through method handles (0.3 % of the demo's frame on lavapipe).
     */
    private static boolean sameDesc(BufferDesc a, BufferDesc b) {
        return a == b || (a != null && b != null && a.size() == b.size() && a.usage() == b.usage());
    }

    private static boolean sameDesc(ImageDesc a, ImageDesc b) {
        return a == b || (a != null && b != null && a.width() == b.width() && a.height() == b.height() && a.format() == b.format()
                && a.usage() == b.usage());
    }

    private static boolean sameAccess(Access a, Access b) {
        return a == b || (a != null && b != null && a.stages() == b.stages() && a.access() == b.access() && a.layout() == b.layout()
                && a.write() == b.write());
    }

    private static void describe(GraphDeclaration g, KeySink b) {
        for (int i = 0; i < g.resources.size(); i++) {
            GraphResource r = g.resources.get(i);
            b.num(r.origin.ordinal()).ch('|');
            if (r.image) {
                b.num(r.imageDesc.width()).ch('x').num(r.imageDesc.height()).ch(':').num(r.imageDesc.format()).ch(':').num(r.imageDesc.usage());
            } else {
                b.num(r.bufferDesc.size()).ch(':').num(r.bufferDesc.usage());
            }
            if (r.finalAccess == null) {
                b.ch('|').ch('-').ch(';');
            } else {
                b.ch('|').access(r.finalAccess).ch(';');
            }
        }
        for (int i = 0; i < g.passes.size(); i++) {
            Pass p = g.passes.get(i);
            b.num(p.kind.ordinal()).ch(p.sideEffect ? '!' : '.').ch(p.asyncCompute ? 'a' : 's').num(p.attachments.size());
            for (int k = 0; k < p.uses.size(); k++) {
                Pass.Use u = p.uses.get(k);
                b.num(u.resource()).num(u.version()).access(u.access()).ch(',');
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

        /**
         * {@code v} in 15-bit characters, low bits first, each but the last with its top bit set (zigzag for the sign): one
         * character for the small numbers a topology is made of, and no divisions (decimal digits made the walk's cost). The
         * encoding is prefix-free, so keys stay unambiguous; they are compared, never read.
         */
        default KeySink num(long v) {
            long z = (v << 1) ^ (v >> 63);
            while ((z >>> 15) != 0) {
                ch((char) (0x8000 | (z & 0x7FFF)));
                z >>>= 15;
            }
            return ch((char) z);
        }

        /** An access by what it does (stages, accesses, layout, write): its name is a label. */
        default KeySink access(Access a) {
            return num(a.stages()).num(a.access()).num(a.layout()).ch(a.write() ? 'w' : 'r');
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

    /** Compares a walk with an existing key; reset for each comparison, so that one serves every frame. */
    static final class KeyMatcher implements KeySink {
        private String key;
        private int at;
        private boolean same;

        void reset(String key) {
            this.key = key;
            this.at = 0;
            this.same = true;
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
}
