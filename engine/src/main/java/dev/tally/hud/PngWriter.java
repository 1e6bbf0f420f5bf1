package dev.tally.hud;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ThreadLocalRandom;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * A minimal PNG encoder for 8-bit RGBA images that needs nothing beyond {@code java.base}
 * ({@link Deflater} and {@link CRC32}; no {@code java.desktop}/ImageIO).
 *
 * <p>Output: signature, {@code IHDR} (bit depth 8, color type 6 = RGBA, compression 0, filter method 0,
 * no interlace), one {@code IDAT} holding the zlib stream, {@code IEND}. Each scanline is filtered with
 * whichever of the five standard filters (None, Sub, Up, Average, Paeth) gives the smallest sum of absolute
 * filtered byte values, the usual heuristic from the PNG specification.
 *
 * <p>Pixels are given as tightly packed rows, top row first, 4 bytes per pixel in the order R, G, B, A
 * (non-premultiplied alpha).
 *
 * <p>Stateless and thread-safe.
 */
public final class PngWriter {

    private static final byte[] SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    private static final int BYTES_PER_PIXEL = 4;

    private static final int FILTER_NONE = 0;
    private static final int FILTER_SUB = 1;
    private static final int FILTER_UP = 2;
    private static final int FILTER_AVERAGE = 3;
    private static final int FILTER_PAETH = 4;

    private PngWriter() {
    }

    /**
     * Encodes an 8-bit RGBA image as a complete PNG file.
     *
     * @param width  width in pixels, at least 1
     * @param height height in pixels, at least 1
     * @param rgba   {@code 4 * width * height} bytes: rows top to bottom, pixels left to right, R G B A each
     * @return the PNG file's bytes
     * @throws IllegalArgumentException if a size is not positive, the image is too large for one array,
     *                                  or {@code rgba} is null or not exactly {@code 4 * width * height} bytes
     */
    public static byte[] encodeRgba(int width, int height, byte[] rgba) {
        validate(width, height, rgba);
        int stride = width * BYTES_PER_PIXEL;

        byte[] idat = compress(filterRows(height, rgba, stride));

        ByteArrayOutputStream out = new ByteArrayOutputStream(idat.length + 64);
        out.writeBytes(SIGNATURE);

        ByteBuffer ihdr = ByteBuffer.allocate(13); // big-endian, as PNG requires
        ihdr.putInt(width).putInt(height)
            .put((byte) 8)   // bit depth
            .put((byte) 6)   // color type: truecolor with alpha
            .put((byte) 0)   // compression method: deflate
            .put((byte) 0)   // filter method: adaptive, five basic filters
            .put((byte) 0);  // interlace method: none
        writeChunk(out, "IHDR", ihdr.array());
        writeChunk(out, "IDAT", idat);
        writeChunk(out, "IEND", new byte[0]);
        return out.toByteArray();
    }

    /**
     * Encodes the image like {@link #encodeRgba} and writes it to {@code file} atomically: the bytes go to
     * a temporary file in the same directory, are forced to storage, and the temporary file is then renamed
     * over {@code file} with {@link StandardCopyOption#ATOMIC_MOVE}. Readers see either the previous content
     * (or no file) or the complete new PNG, never a partial one. On failure the temporary file is removed.
     *
     * @param file   destination; its directory must exist; an existing file is replaced
     * @param width  width in pixels, at least 1
     * @param height height in pixels, at least 1
     * @param rgba   {@code 4 * width * height} bytes, as for {@link #encodeRgba}
     * @throws IllegalArgumentException if the arguments are invalid (nothing is written then)
     * @throws UncheckedIOException     if writing or renaming fails, including when the file system cannot
     *                                  rename atomically (cause {@link java.nio.file.AtomicMoveNotSupportedException})
     */
    public static void write(Path file, int width, int height, byte[] rgba) {
        if (file == null) {
            throw new IllegalArgumentException("PNG file path is null");
        }
        byte[] png = encodeRgba(width, height, rgba);

        Path target = file.toAbsolutePath();
        Path dir = target.getParent();
        if (dir == null) {
            throw new IllegalArgumentException("PNG file path has no parent directory: " + file);
        }
        Path tmp = null;
        boolean moved = false;
        try {
            // Not Files.createTempFile: its owner-only permissions would stick to the renamed PNG.
            // CREATE_NEW with a random name gives the usual umask-derived permissions, and never clobbers.
            FileChannel ch = null;
            String base = target.getFileName().toString();
            base = base.length() > 64 ? base.substring(0, 64) : base;
            for (int attempt = 0; ch == null; attempt++) {
                tmp = dir.resolve("." + base + "." + Long.toHexString(ThreadLocalRandom.current().nextLong()) + ".tmp");
                try {
                    ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                } catch (FileAlreadyExistsException e) {
                    tmp = null;
                    if (attempt >= 100) {
                        throw e;
                    }
                }
            }
            try (FileChannel out = ch) {
                ByteBuffer buf = ByteBuffer.wrap(png);
                while (buf.hasRemaining()) {
                    out.write(buf);
                }
                out.force(true);
            }
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            moved = true;
        } catch (IOException e) {
            throw new UncheckedIOException("writing PNG " + target, e);
        } finally {
            if (!moved && tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // the original failure matters more
                }
            }
        }
    }

    private static void validate(int width, int height, byte[] rgba) {
        if (width <= 0 || height <= 0) {
            throw new IllegalArgumentException("PNG size must be positive, got " + width + "x" + height);
        }
        long expected = (long) BYTES_PER_PIXEL * width * height;
        // The filtered stream has one extra byte per row and must fit in one array as well.
        long filtered = ((long) BYTES_PER_PIXEL * width + 1) * height;
        if (filtered > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("PNG size " + width + "x" + height + " is too large to encode in memory");
        }
        if (rgba == null) {
            throw new IllegalArgumentException("RGBA pixel array is null");
        }
        if (rgba.length != expected) {
            throw new IllegalArgumentException("RGBA pixel array has " + rgba.length + " bytes, expected 4*"
                + width + "*" + height + " = " + expected);
        }
    }

    /** Filters every scanline with the filter of least absolute sum; returns the raw (pre-zlib) image data. */
    private static byte[] filterRows(int height, byte[] rgba, int stride) {
        byte[] outRows = new byte[(stride + 1) * height];
        byte[][] candidates = new byte[5][stride];
        byte[] zeroRow = new byte[stride];
        for (int y = 0; y < height; y++) {
            int cur = y * stride;
            byte[] prevSrc = y == 0 ? zeroRow : rgba;
            int prev = y == 0 ? 0 : cur - stride;

            int best = FILTER_NONE;
            long bestSum = Long.MAX_VALUE;
            for (int f = FILTER_NONE; f <= FILTER_PAETH; f++) {
                byte[] dst = candidates[f];
                long sum = 0;
                for (int i = 0; i < stride; i++) {
                    int x = rgba[cur + i] & 0xFF;
                    int a = i >= BYTES_PER_PIXEL ? rgba[cur + i - BYTES_PER_PIXEL] & 0xFF : 0;
                    int b = prevSrc[prev + i] & 0xFF;
                    int c = i >= BYTES_PER_PIXEL ? prevSrc[prev + i - BYTES_PER_PIXEL] & 0xFF : 0;
                    int predictor = switch (f) {
                        case FILTER_NONE -> 0;
                        case FILTER_SUB -> a;
                        case FILTER_UP -> b;
                        case FILTER_AVERAGE -> (a + b) >>> 1;
                        default -> paeth(a, b, c);
                    };
                    byte v = (byte) (x - predictor);
                    dst[i] = v;
                    sum += Math.abs((int) v); // filtered bytes read as signed, as the spec suggests
                }
                if (sum < bestSum) {
                    bestSum = sum;
                    best = f;
                }
            }
            int o = y * (stride + 1);
            outRows[o] = (byte) best;
            System.arraycopy(candidates[best], 0, outRows, o + 1, stride);
        }
        return outRows;
    }

    private static int paeth(int a, int b, int c) {
        int p = a + b - c;
        int pa = Math.abs(p - a);
        int pb = Math.abs(p - b);
        int pc = Math.abs(p - c);
        if (pa <= pb && pa <= pc) {
            return a;
        }
        return pb <= pc ? b : c;
    }

    private static byte[] compress(byte[] raw) {
        Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION);
        try {
            deflater.setInput(raw);
            deflater.finish();
            ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, raw.length / 4));
            byte[] buf = new byte[64 * 1024];
            while (!deflater.finished()) {
                int n = deflater.deflate(buf);
                out.write(buf, 0, n);
            }
            return out.toByteArray();
        } finally {
            deflater.end();
        }
    }

    private static void writeChunk(ByteArrayOutputStream out, String type, byte[] data) {
        byte[] typeBytes = type.getBytes(StandardCharsets.US_ASCII);
        CRC32 crc = new CRC32();
        crc.update(typeBytes);
        crc.update(data);
        writeInt(out, data.length);
        out.writeBytes(typeBytes);
        out.writeBytes(data);
        writeInt(out, (int) crc.getValue());
    }

    private static void writeInt(ByteArrayOutputStream out, int v) {
        out.write(v >>> 24);
        out.write(v >>> 16);
        out.write(v >>> 8);
        out.write(v);
    }
}
