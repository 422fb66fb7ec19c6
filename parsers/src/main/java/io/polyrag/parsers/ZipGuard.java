package io.polyrag.parsers;

import io.polyrag.core.InvalidInputException;
import io.polyrag.core.model.SourceItem;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipFile;
import org.apache.commons.compress.archivers.zip.ZipLong;
import org.apache.commons.compress.archivers.zip.ZipShort;
import org.apache.commons.compress.utils.SeekableInMemoryByteChannel;

/**
 * Refuses a zip-based document (Office Open XML, OpenDocument, EPUB) that would expand far beyond what a real
 * document needs, from its central directory alone, before any parser inflates a byte of it: a 2 MB .docx expanding
 * to 2 GiB was parsed until the time limit while the heap filled, and a timed-out parse cannot be stopped (its thread
 * runs on). Refused: more than {@code maxEntries} entries; a declared total above {@code maxExpandedBytes}; an entry
 * of over 1 MiB that expands more than {@value #MAX_RATIO} times (real Office XML stays well under, and POI refuses the
 * same ratio while inflating); and entries whose compressed data overlap (the "overlapping files" construction, which
 * reaches huge totals with an innocent ratio per entry). A file whose central directory cannot be read is left to the
 * parser, which calls it corrupt. An entry whose declared size lies is still refused while it inflates: by POI's own
 * ratio guard ({@code ZipSecureFile}) for Office Open XML files, and by one counted inflation here for every other
 * zip-based document (OpenDocument, EPUB: their parsers read through zip readers that trust the declared sizes).
 */
final class ZipGuard {
    /** Largest expansion of one entry, as POI's {@code ZipSecureFile} allows (its minimum inflate ratio, 0.01). */
    static final int MAX_RATIO = 100;
    private static final long GRACE = 1 << 20;

    private ZipGuard() {
    }

    /**
     * @throws InvalidInputException naming the file and what is wrong with it, when it is refused
     */
    static void check(SourceItem item, long maxExpandedBytes, int maxEntries, String detected) {
        check(item, maxExpandedBytes, maxEntries, !ooxml(detected));
    }

    /**
     * Whether a detected type is Office Open XML, whose reader (POI) checks each entry's inflation itself. Judged by
     * the type the content was detected as, never by an entry's name: an OpenDocument file carrying an empty
     * {@code [Content_Types].xml} was spared the counted inflation its own reader needs.
     */
    static boolean ooxml(String detected) {
        String t = detected == null ? "" : detected.toLowerCase(Locale.ROOT);
        return t.startsWith("application/vnd.openxmlformats-officedocument.") || t.equals("application/x-tika-ooxml")
                || t.startsWith("application/vnd.ms-") && t.contains("macroenabled");
    }

    /**
     * @param inflate whether the document is also inflated once, counting (false: its directory alone is judged —
     *     Office Open XML, or before the type is known: an archive is not inflated to be refused)
     * @throws InvalidInputException naming the file and what is wrong with it, when it is refused
     */
    static void check(SourceItem item, long maxExpandedBytes, int maxEntries, boolean inflate) {
        byte[] b = item.content();
        if (b.length < 4 || b[0] != 'P' || b[1] != 'K') {
            return;
        }
        if (declaredEntries(b, maxEntries) > maxEntries) {
            throw refused(item, "holds more than " + maxEntries + " entries");
        }
        List<ZipArchiveEntry> entries;
        try (ZipFile zip = ZipFile.builder().setSeekableByteChannel(new SeekableInMemoryByteChannel(b)).get()) {
            entries = Collections.list(zip.getEntries());
            if (inflate && entries.size() <= maxEntries) {
                inflated(item, zip, entries, maxExpandedBytes);
            }
        } catch (IOException | RuntimeException e) {
            if (e instanceof InvalidInputException refused) {
                throw refused;
            }
            return;
        }
        if (entries.size() > maxEntries) {
            throw refused(item, "holds " + entries.size() + " entries (at most " + maxEntries + ")");
        }
        long total = 0;
        List<long[]> ranges = new ArrayList<>();
        for (ZipArchiveEntry e : entries) {
            long size = Math.max(0, e.getSize());
            long compressed = Math.max(0, e.getCompressedSize());
            total += size;
            if (total > maxExpandedBytes) {
                throw refused(item, "expands to more than " + mb(maxExpandedBytes) + " when decompressed (raise "
                        + "POLYRAG_INGEST_MAX_EXPANDED_MB for a genuinely huge document)");
            }
            if (size > GRACE && size > compressed * MAX_RATIO) {
                throw refused(item, "has an entry that expands " + (compressed == 0 ? "from nothing" : size / compressed
                        + " times") + " (" + mb(compressed) + " to " + mb(size) + ")");
            }
            long start = e.getDataOffset();
            if (start >= 0 && compressed > 0) {
                ranges.add(new long[] {start, start + compressed});
            }
        }
        ranges.sort((x, y) -> Long.compare(x[0], y[0]));
        for (int i = 1; i < ranges.size(); i++) {
            if (ranges.get(i)[0] < ranges.get(i - 1)[1]) {
                throw refused(item, "has entries that share their compressed data (a construction only zip bombs "
                        + "use)");
            }
        }
    }

    /**
     * How many entries the central directory holds, counted up to {@code limit + 1} by walking its records (their
     * signature and lengths) from where the end record says it starts, before any entry is listed: listing 800,000
     * entries to count them built a third of a gigabyte of entry objects, twice for a job. 0 when there is no
     * directory to walk (zip64, a damaged file: left to the listing and the parser).
     */
    static long declaredEntries(byte[] b, int limit) {
        for (int at = b.length - 22; at >= Math.max(0, b.length - 22 - 65_535); at--) {
            if (b[at] == 'P' && b[at + 1] == 'K' && b[at + 2] == 5 && b[at + 3] == 6) {
                long offset = ZipLong.getValue(b, at + 16);
                long count = 0;
                for (long o = offset; o >= 0 && o + 46 <= at && count <= limit; count++) {
                    int r = (int) o;
                    if (b[r] != 'P' || b[r + 1] != 'K' || b[r + 2] != 1 || b[r + 3] != 2) {
                        return count;
                    }
                    // A record: 46 bytes, then its name, extra field and comment, their lengths at 28, 30 and 32.
                    o += 46L + ZipShort.getValue(b, r + 28) + ZipShort.getValue(b, r + 30)
                            + ZipShort.getValue(b, r + 32);
                }
                return count;
            }
        }
        return 0;
    }

    /**
     * A zip-based document other than Office Open XML inflated once, counting: OpenDocument's parser reads it through
     * the JDK's zip and EPUB's through Commons Compress, both trusting the sizes the directory declares, and no guard
     * of POI's stands behind them, so an entry declaring 1,000 bytes that inflates to gigabytes of markup was parsed
     * for tens of minutes past the time limit (or filled the heap). Refused: an entry that inflates past its declared
     * size, or all of them past {@code maxExpandedBytes}.
     */
    private static void inflated(SourceItem item, ZipFile zip, List<ZipArchiveEntry> entries, long maxExpandedBytes)
            throws IOException {
        byte[] buffer = new byte[64 * 1024];
        long total = 0;
        for (ZipArchiveEntry e : entries) {
            if (e.isDirectory() || !zip.canReadEntryData(e)) {
                continue;
            }
            long declared = e.getSize();
            long read = 0;
            try (var in = zip.getInputStream(e)) {
                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                    read += n;
                    total += n;
                    if (declared >= 0 && read > declared) {
                        throw refused(item, "has an entry (" + e.getName() + ") that inflates past the size it "
                                + "declares");
                    }
                    if (total > maxExpandedBytes) {
                        throw refused(item, "expands to more than " + mb(maxExpandedBytes) + " when decompressed "
                                + "(raise POLYRAG_INGEST_MAX_EXPANDED_MB for a genuinely huge document)");
                    }
                }
            }
        }
    }

    private static InvalidInputException refused(SourceItem item, String why) {
        return new InvalidInputException(item.name() + ": " + why + ": a zip bomb, or not a real document; it was "
                + "skipped");
    }

    private static String mb(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
    }
}
