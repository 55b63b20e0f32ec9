package dev.jpto.compiler;

import dev.jpto.runtime.Sizes;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Opens the files that data names (a work dir's files, a directory of {@code <name>.npy} tensors) as data only:
 * a file must lie inside its directory also after resolving symbolic links, and must be a regular file, checked
 * before it is opened so that a FIFO or a device never blocks a read; text is read only up to a size limit, so
 * a huge file is refused instead of exhausting the heap. Each refusal is a {@link DataFileException} naming the
 * file and the rule.
 */
public final class DataFiles {
    /** The largest JSON or text file a work dir may hold: manifest, orchestration, kernels, l3.json, defaults. */
    public static final long MAX_TEXT_BYTES = 64L << 20;
    private static final String BOM = "\uFEFF";

    private DataFiles() {
    }

    /**
     * The real path of the existing regular file {@code file}, which must lie inside {@code dir} (both after
     * resolving links); what it is {@code for} ends every refusal.
     *
     * @throws NoSuchFileException if {@code file} (or a link's target) does not exist
     * @throws DataFileException   if it leaves {@code dir} or is not a regular file
     */
    public static Path existingRegular(Path dir, Path file, String purpose) throws IOException {
        Path real = file.toRealPath();
        requireInside(dir, file, real, purpose);
        BasicFileAttributes a = Files.readAttributes(real, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (!a.isRegularFile()) {
            throw new DataFileException(file, "is " + kind(a) + ", not a regular file: expected " + purpose);
        }
        return real;
    }

    /**
     * {@code file} checked for creating or replacing it: an existing file (or link) must resolve inside
     * {@code dir}; a new one must have {@code dir} as its normalized parent.
     *
     * @throws DataFileException if it would leave {@code dir}
     */
    public static Path insideForWrite(Path dir, Path file, String purpose) {
        Path normalized = file.toAbsolutePath().normalize();
        Path normalizedDir = dir.toAbsolutePath().normalize();
        if (!normalizedDir.equals(normalized.getParent())) {
            throw new DataFileException(file, "resolves to " + normalized + ", outside the directory " + normalizedDir
                    + ": expected " + purpose);
        }
        if (Files.exists(normalized, LinkOption.NOFOLLOW_LINKS)) {
            try {
                requireInside(dir, file, normalized.toRealPath(), purpose);
            } catch (NoSuchFileException e) {
                throw new DataFileException(file, "is a link to a missing file, which writing would create outside "
                        + "the directory " + normalizedDir + ": expected " + purpose);
            } catch (IOException e) {
                throw new DataFileException(file, "cannot be resolved (" + e.getMessage() + "): expected " + purpose);
            }
        }
        return normalized;
    }

    /**
     * The bytes of {@code file} ({@link #existingRegular} rules), refusing a file over {@code maxBytes}; the
     * limit is checked before reading and again while reading (the file may grow in between).
     */
    public static byte[] readBounded(Path dir, Path file, long maxBytes, String purpose) throws IOException {
        Path real = existingRegular(dir, file, purpose);
        long size = Files.size(real);
        if (size > maxBytes) {
            throw tooLarge(file, size, maxBytes, purpose);
        }
        try (InputStream in = Files.newInputStream(real, LinkOption.NOFOLLOW_LINKS)) {
            byte[] bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
            if (bytes.length > maxBytes) {
                throw tooLarge(file, bytes.length, maxBytes, purpose);
            }
            return bytes;
        }
    }

    /**
     * The UTF-8 text of {@code file} ({@link #readBounded} rules); a leading byte order mark, which some editors
     * add, is dropped.
     *
     * @throws java.nio.charset.CharacterCodingException if the file is not UTF-8
     */
    public static String readUtf8(Path dir, Path file, long maxBytes, String purpose) throws IOException {
        byte[] bytes = readBounded(dir, file, maxBytes, purpose);
        String text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
        return text.startsWith(BOM) ? text.substring(1) : text;
    }

    private static DataFileException tooLarge(Path file, long size, long maxBytes, String purpose) {
        return new DataFileException(file, "is " + Sizes.approx(size) + ", over the limit of "
                + Sizes.format(maxBytes) + " for this kind of file: expected " + purpose);
    }

    private static void requireInside(Path dir, Path file, Path real, String purpose) {
        Path realDir;
        try {
            realDir = dir.toRealPath();
        } catch (IOException e) {
            throw new DataFileException(dir, "cannot be resolved (" + e.getMessage() + "): expected the directory "
                    + "holding " + purpose);
        }
        if (!real.startsWith(realDir) || real.equals(realDir)) {
            throw new DataFileException(file, "resolves to " + real + ", outside the directory " + realDir
                    + " it belongs to (a link?): expected " + purpose + " inside it");
        }
    }

    private static String kind(BasicFileAttributes a) {
        if (a.isDirectory()) {
            return "a directory";
        }
        return a.isOther() ? "a FIFO, socket or device" : "a symbolic link";
    }
}
