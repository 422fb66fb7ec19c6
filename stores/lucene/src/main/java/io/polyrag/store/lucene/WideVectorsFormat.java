package io.polyrag.store.lucene;

import java.io.IOException;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.KnnVectorsReader;
import org.apache.lucene.codecs.KnnVectorsWriter;
import org.apache.lucene.index.SegmentReadState;
import org.apache.lucene.index.SegmentWriteState;

/**
 * A vector format that indexes vectors of up to {@value #MAX_DIMENSIONS} dimensions. Lucene's HNSW formats declare
 * 1,024 as their limit, checked only when a vector is indexed: a custom model of 1,536 or 4,096 dimensions opened,
 * then every ingest failed. The graph itself has no such limit (Elasticsearch indexes 4,096 with the same formats).
 * This wraps a format under its own name, so what it writes is read back by Lucene's registered format of that name:
 * an index written with it opens with or without it.
 */
final class WideVectorsFormat extends KnnVectorsFormat {
    /** The widest vector indexed, as the store accepts (and Elasticsearch allows). */
    static final int MAX_DIMENSIONS = 4096;
    private final KnnVectorsFormat delegate;

    WideVectorsFormat(KnnVectorsFormat delegate) {
        super(delegate.getName());
        this.delegate = delegate;
    }

    @Override
    public KnnVectorsWriter fieldsWriter(SegmentWriteState state) throws IOException {
        return delegate.fieldsWriter(state);
    }

    @Override
    public KnnVectorsReader fieldsReader(SegmentReadState state) throws IOException {
        return delegate.fieldsReader(state);
    }

    @Override
    public int getMaxDimensions(String fieldName) {
        return MAX_DIMENSIONS;
    }

    @Override
    public String toString() {
        return "WideVectorsFormat(" + delegate + ")";
    }
}
