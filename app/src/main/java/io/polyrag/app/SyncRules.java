package io.polyrag.app;

import io.polyrag.core.model.ItemError;
import io.polyrag.core.model.SyncItem;
import io.polyrag.core.port.SourceStore;
import java.util.List;
import java.util.Locale;

/** Rules of a sync's comparison with what the last one saw: what may be deleted, what may be trusted. */
final class SyncRules {
    /** Below this many items not found, a sync deletes them whatever their share. */
    static final int FEW = 10;

    /** How close to the scan a modification time must be to be taken as possibly not the file's last. */
    static final long RACY_MS = 2_000;

    private SyncRules() {
    }

    /**
     * The modification time to record for an item read at {@code nowMs}: 0 (compare the bytes next time) when the
     * file was modified within {@value #RACY_MS} ms of it. On file systems keeping seconds or two (FAT, HFS+, some
     * SMB and NFS servers) a same-size write in the same second as the read kept its recorded time, and was never
     * read again (git's "racy clean" case).
     */
    static long settled(long modifiedMs, long nowMs) {
        // Either side: a time slightly ahead (a file server's clock) is as close; one far ahead is trusted, or the
        // file was read again at every sync until the clock caught up.
        return modifiedMs > 0 && Math.abs(nowMs - modifiedMs) < RACY_MS ? 0 : modifiedMs;
    }

    /**
     * After a sync that re-read every item under new indexing settings: the items that failed in it (a model's 429, a
     * file not readable for a moment) are recorded as needing a read, or the next sync, trusting their unchanged
     * times, kept them on the old settings for good.
     */
    static void readAgain(SourceStore sources, String tenant, String source, List<String> retried) {
        // Only failures of the moment, by their item keys ("docs/a.md", a URL): the errors name an item by its file
        // name ("a.md"), which found only a folder's top-level files, and the others stayed on the old settings.
        // A file refused for its bytes is remembered, read again once it changes.
        List<String> items = retried.stream().distinct().toList();
        if (items.isEmpty()) {
            return;
        }
        sources.putSourceItems(tenant, source, sources.sourceItems(tenant, source, items).values().stream()
                .map(i -> new SyncItem(i.item(), 0, i.sizeBytes(), "", i.documentId(), "")).toList());
    }

    /**
     * A scan's errors as the source's last error: null for none; the whole source's (the delete guard's, an empty
     * listing's; they come first) as it is, then how many items failed besides; else how many items failed, and the
     * first. The guard's reason read "items failed or skipped: 1, e.g. the source no longer lists…".
     */
    static String lastError(List<ItemError> errors) {
        if (errors.isEmpty()) {
            return null;
        }
        String first = errors.getFirst().reason();
        if (first.startsWith("the source ")) {
            return errors.size() == 1 ? first : first + " (and items failed or skipped: " + (errors.size() - 1) + ")";
        }
        return "items failed or skipped: " + errors.size() + ", e.g. " + first;
    }

    /**
     * Why a listing may not delete what it did not find, when that is more than {@code maxPercent} of what the
     * source holds and this listing found together, and at least {@value #FEW} (a site now behind a sign-in lists its
     * login page; a share remounted nearly empty lists what is left): the few items found would have deleted all the
     * others. What the listing found counts whether recorded or not: a folder moved as a whole lists its files
     * under new names (held as copies of the old ones, not recorded yet), and is half found, not all gone. Null when
     * it may. Items that answered they are gone (a web page's 404 or 410) count with the ones not found: judged
     * apart, each share passed (a site answering 404 for 45 of its pages, hiding 45 more, lost 90% in one sync).
     */
    static String tooManyGone(SourceStore sources, String tenant, String source, long scan, long listed, int gone,
            boolean whole, int maxPercent) {
        int unseen = whole ? sources.countUnseenSourceItems(tenant, source, scan) : 0;
        int going = unseen + gone;
        if (going < FEW) {
            return null;
        }
        int total = sources.countSourceItems(tenant, source);
        // Items that answered they are gone were listed, not found.
        if (going * 100L <= Math.max(total, going + Math.max(0, listed - gone)) * maxPercent) {
            return null;
        }
        return String.format(Locale.ROOT, "the source no longer lists %,d of its %,d items%s, more than %d%%: nothing "
                + "was deleted (a site behind a sign-in or answering 404 for a while? a share remounted nearly "
                + "empty? settings narrowed?); if they are gone for good, sync once allowing it (sync-now with "
                + "max_delete_percent=100), or delete the source with its documents", going, total, gone > 0 ? " ("
                + gone + " answered that they are gone)" : "", maxPercent);
    }
}
