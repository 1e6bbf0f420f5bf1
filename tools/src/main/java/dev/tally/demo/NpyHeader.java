package dev.tally.demo;

import java.io.IOException;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The header of a NumPy {@code .npy} file (format versions 1.0, 2.0 and 3.0): the magic {@code \x93NUMPY},
 * a version, a little-endian header length (2 bytes in 1.0, 4 bytes later), then a Python dict literal
 * with exactly the keys {@code descr}, {@code fortran_order} and {@code shape}. Tally reduces only
 * little-endian float32 ({@code '<f4'}) in C order; any shape is read as its elements in order.
 */
record NpyHeader(String descr, List<Long> shape, long count) {
    private static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
    /** Real headers are tens of bytes (numpy pads them to 64); a larger one is not a header. */
    private static final int MAX_HEADER = 1 << 20;

    /** An input after its first bytes were looked at: the .npy header (null for raw floats) and the data. */
    record Opened(NpyHeader header, InputStream data) {
    }

    /**
     * Reads the header when {@code in} starts with the .npy magic; otherwise the bytes looked at are put
     * back in front of the data. A header that is malformed, or describes anything but C-ordered
     * little-endian float32, is bad input naming {@code name}.
     */
    static Opened open(String name, InputStream in) throws IOException {
        byte[] start = new byte[MAGIC.length];
        int got = 0;
        try {
            for (int r; got < start.length && (r = in.read(start, got, start.length - got)) >= 0; ) {
                got += r;
            }
        } catch (IOException e) {
            throw new UserInputException(name + ": read failed after " + got + " bytes: " + ReduceCommand.reason(e));
        }
        if (got < start.length || !java.util.Arrays.equals(start, MAGIC)) {
            // SequenceInputStream returns the looked-at bytes on their own, so a read that fails after them
            // is still counted after them.
            return new Opened(null, new SequenceInputStream(new ByteArrayInputStream(start, 0, got), in));
        }
        return new Opened(readRest(name, in), in);
    }

    private static NpyHeader readRest(String name, InputStream in) throws IOException {
        int major = in.read();
        int minor = in.read();
        if (major < 0 || minor < 0) {
            throw bad(name, "malformed .npy header: the file ends inside it");
        }
        if (major < 1 || major > 3) {
            throw bad(name, "unsupported .npy format version " + major + "." + minor + " (1.0, 2.0 and 3.0 are read)");
        }
        byte[] lengthBytes = in.readNBytes(major == 1 ? 2 : 4);
        if (lengthBytes.length < (major == 1 ? 2 : 4)) {
            throw bad(name, "malformed .npy header: the file ends inside it");
        }
        long length = 0;
        for (int i = lengthBytes.length - 1; i >= 0; i--) {
            length = (length << 8) | (lengthBytes[i] & 0xff);
        }
        if (length > MAX_HEADER) {
            throw bad(name, "malformed .npy header: it claims " + length + " bytes");
        }
        byte[] header = in.readNBytes((int) length);
        if (header.length < length) {
            throw bad(name, "malformed .npy header: the file ends inside it (" + header.length + " of " + length + " bytes)");
        }
        String text = new String(header, major == 3 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
        return parse(name, text);
    }

    static NpyHeader parse(String name, String text) {
        Map<String, Object> dict;
        try {
            Literal p = new Literal(text);
            Object value = p.value();
            p.end();
            if (!(value instanceof Map<?, ?> m)) {
                throw new IllegalArgumentException("not a dict");
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> typed = (Map<String, Object>) m;
            dict = typed;
        } catch (IllegalArgumentException e) {
            throw bad(name, "malformed .npy header (" + e.getMessage() + "): " + Main.oneLine(shorten(text)));
        }
        if (!dict.keySet().equals(java.util.Set.of("descr", "fortran_order", "shape"))) {
            throw bad(name, "malformed .npy header: keys " + dict.keySet() + ", expected descr, fortran_order and shape");
        }
        if (!(dict.get("descr") instanceof String descr)) {
            throw bad(name, "dtype " + dict.get("descr") + " is not supported: only little-endian float32 ('<f4') is read");
        }
        if (!descr.equals("<f4")) {
            throw bad(name, "dtype '" + descr + "' is not supported: only little-endian float32 ('<f4') is read");
        }
        if (!(dict.get("fortran_order") instanceof Boolean fortran)) {
            throw bad(name, "malformed .npy header: fortran_order is " + dict.get("fortran_order") + ", expected True or False");
        }
        if (fortran) {
            throw bad(name, "fortran_order True is not supported: only C order is read (numpy.ascontiguousarray converts)");
        }
        if (!(dict.get("shape") instanceof Shape shape)) {
            throw bad(name, "malformed .npy header: shape is " + dict.get("shape") + ", expected a tuple of integers");
        }
        long count = 1;
        for (long d : shape.dims()) {
            if (d < 0) {
                throw bad(name, "malformed .npy header: negative dimension in shape " + shape);
            }
            try {
                count = Math.multiplyExact(count, d);
            } catch (ArithmeticException e) {
                throw bad(name, "malformed .npy header: shape " + shape + " has more elements than a long counts");
            }
        }
        return new NpyHeader(descr, shape.dims(), count);
    }

    private static String shorten(String s) {
        return s.length() > 120 ? s.substring(0, 120) + "..." : s;
    }

    private static UserInputException bad(String name, String what) {
        return new UserInputException(name + ": " + what);
    }

    /** A tuple of integers, the only tuple a .npy header holds. */
    record Shape(List<Long> dims) {
        @Override
        public String toString() {
            StringBuilder b = new StringBuilder("(");
            for (long d : dims) {
                b.append(d).append(dims.size() == 1 ? "," : ", ");
            }
            return (dims.size() > 1 ? b.substring(0, b.length() - 2) : b.toString()) + ")";
        }
    }

    /** The Python literals a header uses: dict, string, True/False, integers, tuples and lists (to refuse them by name). */
    private static final class Literal {
        private final String s;
        private int i;

        Literal(String s) {
            this.s = s;
        }

        void end() {
            ws();
            if (i != s.length()) {
                throw new IllegalArgumentException("text after the dict");
            }
        }

        private void ws() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
        }

        private char peek() {
            ws();
            if (i >= s.length()) {
                throw new IllegalArgumentException("ends early");
            }
            return s.charAt(i);
        }

        private boolean eat(char c) {
            if (peek() == c) {
                i++;
                return true;
            }
            return false;
        }

        Object value() {
            char c = peek();
            if (c == '{') {
                i++;
                Map<String, Object> m = new LinkedHashMap<>();
                while (!eat('}')) {
                    if (!(value() instanceof String key)) {
                        throw new IllegalArgumentException("a dict key that is not a string");
                    }
                    if (!eat(':')) {
                        throw new IllegalArgumentException("':' expected after '" + key + "'");
                    }
                    if (m.put(key, value()) != null) {
                        throw new IllegalArgumentException("key '" + key + "' twice");
                    }
                    if (!eat(',') && peek() != '}') {
                        throw new IllegalArgumentException("',' or '}' expected");
                    }
                }
                return m;
            }
            if (c == '(' || c == '[') {
                i++;
                char close = c == '(' ? ')' : ']';
                List<Object> items = new ArrayList<>();
                while (!eat(close)) {
                    items.add(value());
                    if (!eat(',') && peek() != close) {
                        throw new IllegalArgumentException("',' or '" + close + "' expected");
                    }
                }
                if (c == '[') {
                    return items;
                }
                List<Long> dims = new ArrayList<>();
                for (Object o : items) {
                    if (!(o instanceof Long l)) {
                        return items;   // a tuple, but not a shape (structured dtypes hold such tuples)
                    }
                    dims.add(l);
                }
                return new Shape(List.copyOf(dims));
            }
            if (c == '\'' || c == '"') {
                int endQuote = s.indexOf(c, i + 1);
                if (endQuote < 0) {
                    throw new IllegalArgumentException("unterminated string");
                }
                String v = s.substring(i + 1, endQuote);
                i = endQuote + 1;
                return v;
            }
            if (s.startsWith("True", i)) {
                i += 4;
                return Boolean.TRUE;
            }
            if (s.startsWith("False", i)) {
                i += 5;
                return Boolean.FALSE;
            }
            int start = i;
            if (c == '-') {
                i++;
            }
            while (i < s.length() && Character.isDigit(s.charAt(i)) && s.charAt(i) < 128) {
                i++;
            }
            if (i == start || (i == start + 1 && c == '-')) {
                throw new IllegalArgumentException("unexpected '" + c + "'");
            }
            String digits = s.substring(start, i);
            if (i < s.length() && s.charAt(i) == 'L') {
                i++;   // Python 2 wrote long integers with an L suffix
            }
            try {
                return Long.parseLong(digits);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("integer " + digits + " out of range");
            }
        }
    }
}
