package dev.tally.internal.graph;

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

    private static void describe(GraphDeclaration g, KeySink b) {
        for (int i = 0; i < g.resources.size(); i++) {
            GraphResource r = g.resources.get(i);
            b.num(r.origin.ordinal()).ch('|');
            if (r.image) {
                b.num(r.imageDesc.width()).ch('x').num(r.imageDesc.height()).ch(':').num(r.imageDesc.format()).ch(':').num(r.imageDesc.usage());
            } else {
                b.num(r.bufferDesc.size()).ch(':').num(r.bufferDesc.usage());
            }
            b.ch('|').str(r.finalAccess == null ? "-" : r.finalAccess.name()).ch(';');
        }
        for (int i = 0; i < g.passes.size(); i++) {
            Pass p = g.passes.get(i);
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
