package io.polyrag.ingest;



/** How fast one ingest's texts embed, and so how many chunks its next automatic batch holds. */
final class Pace {
    private double nanosPerChunk;
    private int lastChunks;

    /** About {@link IngestPipeline.Options#AUTO_BATCH_EMBED_NANOS} of embedding at the last batch's pace, within the bounds. */
    synchronized int chunks(int max) {
        if (nanosPerChunk <= 0) {
            return Math.min(max, IngestPipeline.Options.AUTO_BATCH_FIRST_CHUNKS);
        }
        double fit = Math.min(IngestPipeline.Options.AUTO_BATCH_EMBED_NANOS / nanosPerChunk, 4.0 * lastChunks);
        return (int) Math.min(max, Math.max(IngestPipeline.Options.AUTO_BATCH_FIRST_CHUNKS, fit));
    }

    synchronized void record(int chunks, long nanos) {
        if (chunks > 0) {
            nanosPerChunk = (double) nanos / chunks;
            lastChunks = chunks;
        }
    }
}
