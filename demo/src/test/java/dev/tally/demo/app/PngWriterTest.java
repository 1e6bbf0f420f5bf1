package dev.tally.demo.app;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

import static org.junit.jupiter.api.Assertions.*;

/** PNG output checked by an independent decoder written here, and by the JDK's ImageIO (tests only). */
class PngWriterTest {

    static {
        System.setProperty("java.awt.headless", "true");
    }

    private static final byte[] SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

    // ---------------------------------------------------------------- a small reference decoder

    private record Chunk(String type, byte[] data) {
    }

    private record Decoded(int width, int height, byte[] rgba, List<String> chunkTypes, int[] filterCounts) {
    }

    /** Parses the chunks, checking the signature, every length and every CRC. */
    private static List<Chunk> chunks(byte[] png) {
        assertTrue(png.length >= 8, "shorter than the signature");
        assertArrayEquals(SIGNATURE, Arrays.copyOf(png, 8), "PNG signature");
        ByteBuffer in = ByteBuffer.wrap(png); // big-endian
        in.position(8);
        List<Chunk> chunks = new ArrayList<>();
        while (in.hasRemaining()) {
            assertTrue(in.remaining() >= 12, "truncated chunk header at " + in.position());
            int length = in.getInt();
            assertTrue(length >= 0 && length <= in.remaining() - 8, "bad chunk length " + length);
            byte[] type = new byte[4];
            in.get(type);
            byte[] data = new byte[length];
            in.get(data);
            int storedCrc = in.getInt();
            CRC32 crc = new CRC32();
            crc.update(type);
            crc.update(data);
            String name = new String(type, StandardCharsets.US_ASCII);
            assertEquals((int) crc.getValue(), storedCrc, "CRC of chunk " + name);
            chunks.add(new Chunk(name, data));
        }
        return chunks;
    }

    private static Decoded decode(byte[] png) throws DataFormatException {
        List<Chunk> chunks = chunks(png);
        assertFalse(chunks.isEmpty());
        assertEquals("IHDR", chunks.get(0).type(), "first chunk");
        assertEquals("IEND", chunks.get(chunks.size() - 1).type(), "last chunk");
        assertEquals(0, chunks.get(chunks.size() - 1).data().length, "IEND is empty");

        ByteBuffer ihdr = ByteBuffer.wrap(chunks.get(0).data());
        assertEquals(13, ihdr.remaining(), "IHDR length");
        int width = ihdr.getInt();
        int height = ihdr.getInt();
        assertEquals(8, ihdr.get(), "bit depth");
        assertEquals(6, ihdr.get(), "color type (RGBA)");
        assertEquals(0, ihdr.get(), "compression method");
        assertEquals(0, ihdr.get(), "filter method");
        assertEquals(0, ihdr.get(), "interlace method");
        assertTrue(width > 0 && height > 0);

        ByteArrayOutputStream zlib = new ByteArrayOutputStream();
        boolean idatSeen = false;
        boolean idatEnded = false;
        for (Chunk c : chunks.subList(1, chunks.size() - 1)) {
            assertNotEquals("IHDR", c.type());
            assertNotEquals("IEND", c.type());
            if (c.type().equals("IDAT")) {
                assertFalse(idatEnded, "IDAT chunks must be consecutive");
                idatSeen = true;
                zlib.writeBytes(c.data());
            } else if (idatSeen) {
                idatEnded = true;
            }
        }
        assertTrue(idatSeen, "no IDAT");

        int stride = 4 * width;
        byte[] raw = new byte[(stride + 1) * height];
        Inflater inflater = new Inflater(); // zlib wrapper, as PNG requires
        try {
            inflater.setInput(zlib.toByteArray());
            int n = 0;
            while (n < raw.length && !inflater.finished()) {
                int got = inflater.inflate(raw, n, raw.length - n);
                assertFalse(got == 0 && (inflater.needsInput() || inflater.needsDictionary()), "zlib stream ended early");
                n += got;
            }
            assertEquals(raw.length, n, "decompressed size");
            // Nothing may follow the image data inside the stream.
            byte[] extra = new byte[16];
            assertEquals(0, inflater.inflate(extra), "data beyond the image");
            assertTrue(inflater.finished(), "zlib stream properly terminated (Adler-32 checked)");
            assertEquals(0, inflater.getRemaining(), "bytes after the zlib stream");
        } finally {
            inflater.end();
        }

        byte[] rgba = new byte[stride * height];
        int[] filterCounts = new int[5];
        for (int y = 0; y < height; y++) {
            int f = raw[y * (stride + 1)] & 0xFF;
            assertTrue(f <= 4, "row " + y + " filter type " + f);
            filterCounts[f]++;
            int src = y * (stride + 1) + 1;
            int dst = y * stride;
            for (int i = 0; i < stride; i++) {
                int a = i >= 4 ? rgba[dst + i - 4] & 0xFF : 0;
                int b = y > 0 ? rgba[dst - stride + i] & 0xFF : 0;
                int c = (i >= 4 && y > 0) ? rgba[dst - stride + i - 4] & 0xFF : 0;
                int pred = switch (f) {
                    case 0 -> 0;
                    case 1 -> a;
                    case 2 -> b;
                    case 3 -> (a + b) / 2;
                    default -> {
                        int p = a + b - c;
                        int pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
                        yield (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c);
                    }
                };
                rgba[dst + i] = (byte) ((raw[src + i] & 0xFF) + pred);
            }
        }
        List<String> types = chunks.stream().map(Chunk::type).toList();
        return new Decoded(width, height, rgba, types, filterCounts);
    }

    // ---------------------------------------------------------------- images

    /** Smooth gradients in every channel (alpha too), plus a hard-edged block, so rows favour different filters. */
    private static byte[] gradient(int w, int h) {
        byte[] rgba = new byte[4 * w * h];
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                int i = 4 * (y * w + x);
                rgba[i] = (byte) (x * 255 / Math.max(1, w - 1));
                rgba[i + 1] = (byte) (y * 255 / Math.max(1, h - 1));
                rgba[i + 2] = (byte) ((x + y) * 5);
                rgba[i + 3] = (byte) (255 - (x * y) % 256);
                if (x >= w / 3 && x < w / 2 && y >= h / 4 && y < h / 2) {
                    rgba[i] = (byte) 0xFF;
                    rgba[i + 1] = 0;
                    rgba[i + 2] = (byte) 0x80;
                    rgba[i + 3] = 0; // fully transparent, colour must survive anyway
                }
            }
        }
        return rgba;
    }

    private static byte[] noise(int w, int h, long seed) {
        byte[] rgba = new byte[4 * w * h];
        new Random(seed).nextBytes(rgba);
        return rgba;
    }

    private static void assertSameImage(int w, int h, byte[] expected, Decoded d) {
        assertEquals(w, d.width(), "width");
        assertEquals(h, d.height(), "height");
        for (int i = 0; i < expected.length; i++) {
            if (expected[i] != d.rgba()[i]) {
                int p = i / 4;
                fail("pixel (" + (p % w) + ", " + (p / w) + ") channel " + "RGBA".charAt(i % 4)
                    + ": expected " + (expected[i] & 0xFF) + " got " + (d.rgba()[i] & 0xFF));
            }
        }
    }

    private static void assertImageIoReads(int w, int h, byte[] rgba, byte[] png) throws IOException {
        BufferedImage img = ImageIO.read(new ByteArrayInputStream(png));
        assertNotNull(img, "ImageIO found no reader for the output");
        assertEquals(w, img.getWidth());
        assertEquals(h, img.getHeight());
        assertTrue(img.getColorModel().hasAlpha(), "ImageIO sees an alpha channel");
        assertFalse(img.getColorModel().isAlphaPremultiplied());
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                int i = 4 * (y * w + x);
                int expected = (rgba[i + 3] & 0xFF) << 24 | (rgba[i] & 0xFF) << 16 | (rgba[i + 1] & 0xFF) << 8 | (rgba[i + 2] & 0xFF);
                int actual = img.getRGB(x, y);
                if (expected != actual) {
                    fail(String.format("ImageIO pixel (%d, %d): expected ARGB %08x got %08x", x, y, expected, actual));
                }
            }
        }
    }

    // ---------------------------------------------------------------- tests

    @Test
    void gradientRoundTripsThroughOwnDecoderAndImageIo() throws Exception {
        int w = 37, h = 23;
        byte[] rgba = gradient(w, h);
        byte[] png = PngWriter.encodeRgba(w, h, rgba);

        Decoded d = decode(png);
        assertEquals(List.of("IHDR", "IDAT", "IEND"), d.chunkTypes());
        assertSameImage(w, h, rgba, d);
        assertEquals(h, Arrays.stream(d.filterCounts()).sum());
        System.out.println("PngWriter: " + w + "x" + h + " gradient -> " + png.length + " bytes, rows per filter [None, Sub, Up, Avg, Paeth] = "
            + Arrays.toString(d.filterCounts()));
        // A smooth gradient should not be stored unfiltered row after row.
        assertTrue(d.filterCounts()[0] < h, "every row used filter None");

        assertImageIoReads(w, h, rgba, png);
    }

    @Test
    void gradientCompressesWell() {
        int w = 256, h = 128;
        byte[] png = PngWriter.encodeRgba(w, h, gradient(w, h));
        assertTrue(png.length < 4 * w * h / 4, "gradient of " + 4 * w * h + " bytes encoded to " + png.length);
    }

    @Test
    void noiseAndOddSizesRoundTrip() throws Exception {
        int[][] sizes = {{1, 1}, {1, 17}, {19, 1}, {3, 2}, {64, 33}};
        for (int[] s : sizes) {
            for (byte[] rgba : List.of(noise(s[0], s[1], 31L * s[0] + s[1]), gradient(s[0], s[1]))) {
                byte[] png = PngWriter.encodeRgba(s[0], s[1], rgba);
                assertSameImage(s[0], s[1], rgba, decode(png));
                assertImageIoReads(s[0], s[1], rgba, png);
            }
        }
    }

    @Test
    void encodingIsDeterministicAndDoesNotTouchTheInput() {
        byte[] rgba = gradient(20, 10);
        byte[] copy = rgba.clone();
        assertArrayEquals(PngWriter.encodeRgba(20, 10, rgba), PngWriter.encodeRgba(20, 10, rgba));
        assertArrayEquals(copy, rgba);
    }

    @Test
    void rejectsBadArgumentsWithClearMessages() {
        IllegalArgumentException e;
        e = assertThrows(IllegalArgumentException.class, () -> PngWriter.encodeRgba(0, 4, new byte[0]));
        assertTrue(e.getMessage().contains("positive") && e.getMessage().contains("0x4"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> PngWriter.encodeRgba(4, -1, new byte[0]));
        assertTrue(e.getMessage().contains("positive") && e.getMessage().contains("4x-1"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> PngWriter.encodeRgba(2, 2, new byte[15]));
        assertTrue(e.getMessage().contains("15") && e.getMessage().contains("16"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> PngWriter.encodeRgba(2, 2, new byte[17]));
        assertTrue(e.getMessage().contains("17") && e.getMessage().contains("16"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> PngWriter.encodeRgba(2, 2, null));
        assertTrue(e.getMessage().contains("null"), e.getMessage());
        // 4*w*h overflows int: must be reported, not wrap around to a "matching" length.
        e = assertThrows(IllegalArgumentException.class, () -> PngWriter.encodeRgba(65536, 65536, new byte[0]));
        assertTrue(e.getMessage().contains("65536x65536"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> PngWriter.write(null, 1, 1, new byte[4]));
        assertTrue(e.getMessage().contains("null"), e.getMessage());
    }

    private static List<Path> listDir(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted().toList();
        }
    }

    @Test
    void writeProducesTheEncodedFileAndLeavesNoTemporaries(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("shot.png");
        byte[] rgba = gradient(40, 30);
        PngWriter.write(file, 40, 30, rgba);
        assertEquals(List.of(file), listDir(dir));
        byte[] png = Files.readAllBytes(file);
        assertArrayEquals(PngWriter.encodeRgba(40, 30, rgba), png);
        assertSameImage(40, 30, rgba, decode(png));

        // Replacing an existing file.
        byte[] other = noise(8, 8, 7);
        PngWriter.write(file, 8, 8, other);
        assertEquals(List.of(file), listDir(dir));
        assertSameImage(8, 8, other, decode(Files.readAllBytes(file)));

        // A relative path resolves against the working directory like any other Path.
        Path relative = Path.of("").toAbsolutePath().relativize(dir.resolve("rel.png"));
        PngWriter.write(relative, 2, 3, gradient(2, 3));
        assertTrue(Files.isRegularFile(dir.resolve("rel.png")));
    }

    @Test
    void invalidWriteLeavesNothingBehind(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("bad.png");
        assertThrows(IllegalArgumentException.class, () -> PngWriter.write(file, 3, 3, new byte[35]));
        assertThrows(IllegalArgumentException.class, () -> PngWriter.write(file, 0, 3, new byte[0]));
        assertEquals(List.of(), listDir(dir));

        // An existing file survives a rejected overwrite untouched.
        PngWriter.write(file, 1, 1, new byte[] {1, 2, 3, 4});
        byte[] before = Files.readAllBytes(file);
        assertThrows(IllegalArgumentException.class, () -> PngWriter.write(file, 2, 2, new byte[4]));
        assertArrayEquals(before, Files.readAllBytes(file));
        assertEquals(List.of(file), listDir(dir));
    }

    @Test
    void failedWriteCleansUpTheTemporaryFile(@TempDir Path dir) throws Exception {
        // The target is a non-empty directory, so the final rename must fail after the temporary was written.
        Path target = dir.resolve("taken.png");
        Files.createDirectory(target);
        Files.writeString(target.resolve("keep"), "x");
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> PngWriter.write(target, 2, 2, new byte[16]));
        assertTrue(e.getMessage().contains("taken.png"), e.getMessage());
        assertEquals(List.of(target), listDir(dir), "temporary file left behind");

        // A missing directory is an I/O error, not a silent no-op.
        Path missing = dir.resolve("no-such-dir").resolve("x.png");
        assertThrows(UncheckedIOException.class, () -> PngWriter.write(missing, 1, 1, new byte[4]));
        assertFalse(Files.exists(missing.getParent()));
    }
}
