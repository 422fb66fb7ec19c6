package io.polyrag.app;

import io.polyrag.core.port.BlobStore;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How an ingest takes kept uploads ({@code upload-<id>} and its {@code -meta} description) for its job. An id is
 * claimed by deleting its description, so of two ingests of one id one goes on; a claim blob holding the
 * description is written first, so a process killed between the claim and the job's commit loses nothing: the sweep
 * puts the description of a claim no job owns back an hour later, and the id can be ingested again.
 */
final class StagedClaims {
    private static final System.Logger LOG = System.getLogger(StagedClaims.class.getName());
    static final String META = "-meta";
    static final String CLAIM = "-claim";
    private static final Set<String> CLAIMING = ConcurrentHashMap.newKeySet();

    private StagedClaims() {
    }

    /**
     * Claims every key, in order. A blob store failure gives back what was claimed and is thrown.
     *
     * @param metas each key's description, as stored
     * @return the indexes of the keys another ingest took meanwhile (those this call claimed are given back then)
     */
    static List<Integer> claim(BlobStore blobs, List<String> keys, List<byte[]> metas) {
        List<Integer> claimed = new ArrayList<>();
        List<Integer> taken = new ArrayList<>();
        List<String> held = new ArrayList<>();
        try {
            for (int i = 0; i < keys.size(); i++) {
                // One claim of a key at a time in this process: an S3 delete answers true to every caller that got
                // past its HEAD, so a double-click started two jobs on one upload. (Replicas sharing a bucket still
                // can, at the same instant; the filesystem store's delete is exactly-once across them too.)
                if (!CLAIMING.add(keys.get(i))) {
                    taken.add(i);
                    continue;
                }
                held.add(keys.get(i));
                blobs.put(keys.get(i) + CLAIM, metas.get(i), "application/json", "claim.json");
                if (blobs.delete(keys.get(i) + META)) {
                    claimed.add(i);
                } else {
                    // Taken by another ingest: its claim (the same bytes) is left for it, or for the sweep.
                    taken.add(i);
                }
            }
        } catch (RuntimeException e) {
            // The blob store failed midway (a timeout): the ones claimed already are given back, or a retry was
            // told they did not exist and their bytes waited for the sweep.
            giveBack(blobs, keys, metas, claimed);
            throw e;
        } finally {
            CLAIMING.removeAll(held);
        }
        if (!taken.isEmpty()) {
            giveBack(blobs, keys, metas, claimed);
        }
        return taken;
    }

    /** Puts back the descriptions of the claimed keys (their ingest did not start), so their ids can be used again. */
    static void giveBack(BlobStore blobs, List<String> keys, List<byte[]> metas, List<Integer> which) {
        for (int i : which) {
            try {
                blobs.put(keys.get(i) + META, metas.get(i), "application/json", "meta.json");
                blobs.delete(keys.get(i) + CLAIM);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "cannot restore staged upload " + keys.get(i) + " (the staging "
                        + "sweep will): " + e.getMessage());
            }
        }
    }

    /** The job that owns the keys is committed: their claims are not needed any more. */
    static void release(BlobStore blobs, List<String> keys) {
        for (String key : keys) {
            try {
                blobs.delete(key + CLAIM);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.DEBUG, "claim of " + key + " left for the staging sweep: "
                        + e.getMessage());
            }
        }
    }

    /**
     * Settles the claims written before {@code grace}: one whose upload no unfinished job owns and that has not
     * expired gets its description back (its ingest never committed: a kill, a lost connection); the others are
     * deleted.
     *
     * @param kept every kept-upload blob, as listed
     * @return how many claims were settled
     */
    static int recover(BlobStore blobs, List<BlobStore.Listed> kept, Set<String> owned, Instant grace,
            Instant expired) {
        Map<String, Instant> listed = new HashMap<>();
        kept.forEach(b -> listed.put(b.key(), b.modified()));
        int settled = 0;
        for (var b : kept) {
            if (!b.key().endsWith(CLAIM) || !b.modified().isBefore(grace)) {
                continue;
            }
            String content = b.key().substring(0, b.key().length() - CLAIM.length());
            Instant stored = listed.get(content);
            if (stored != null && stored.isAfter(expired) && !owned.contains(content)
                    && !listed.containsKey(content + META)) {
                try {
                    var claim = blobs.get(b.key());
                    if (claim.isPresent()) {
                        try (var in = claim.get().content()) {
                            blobs.put(content + META, in.readAllBytes(), "application/json", "meta.json");
                        }
                        LOG.log(System.Logger.Level.INFO, "staged upload " + content + " claimed by an ingest that "
                                + "never started is waiting again");
                    }
                } catch (IOException | RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "cannot restore staged upload " + content + ": "
                            + e.getMessage());
                    continue;
                }
            }
            if (blobs.delete(b.key())) {
                settled++;
            }
        }
        return settled;
    }
}
