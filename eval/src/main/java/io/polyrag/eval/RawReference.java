package io.polyrag.eval;

import io.polyrag.app.Embeddings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.Consumer;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.ByteBuffersDirectory;

/**
 * The raw-library reference polyrag's fusion is judged against: what anyone would build from the same parts with
 * none of polyrag's pipeline. One Lucene document per corpus entry (title and text, English analysis, BM25 with the
 * configured k1 and b, the query a bag of its analysed words), one vector per entry from the same embedding model
 * (exact cosine over all of them), each list the top {@value #DEPTH} documents, and RRF with k {@value #RRF_K} over
 * the two, or their min-max normalised scores (over each list's top {@value #DEPTH}) added with equal weights. No
 * chunks, no chunk-to-document aggregation, no dedup, no catalog join.
 */
final class RawReference {
    static final int DEPTH = 1000;
    static final int RRF_K = 60;

    enum Kind {
        BM25,
        VECTOR,
        RRF,
        MINMAX
    }

    /** A document of one list with its score. */
    record Scored(String id, double score) {
    }

    private final Analyzer analyzer = new EnglishAnalyzer();
    private final IndexSearcher searcher;
    private final List<String> ids;
    private final float[][] vectors;
    private final Embeddings embeddings;

    private RawReference(IndexSearcher searcher, List<String> ids, float[][] vectors, Embeddings embeddings) {
        this.searcher = searcher;
        this.ids = ids;
        this.vectors = vectors;
        this.embeddings = embeddings;
    }

    /**
     * Builds the reference over the corpus: an in-memory BM25 index and, when {@code embeddings} is given, one vector
     * per document (the catalog's embedding cache keeps them, so a second evaluation of the same corpus does not
     * embed again).
     */
    static RawReference build(BeirDataset ds, Embeddings embeddings, double k1, double b, Consumer<String> log) {
        List<String> ids = new ArrayList<>(ds.corpus().keySet());
        ByteBuffersDirectory dir = new ByteBuffersDirectory();
        BM25Similarity bm25 = new BM25Similarity((float) k1, (float) b);
        try (IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(new EnglishAnalyzer()).setSimilarity(bm25))) {
            for (String id : ids) {
                BeirDataset.Doc d = ds.corpus().get(id);
                Document doc = new Document();
                doc.add(new StoredField("id", id));
                doc.add(new TextField("text", text(d), Field.Store.NO));
                w.addDocument(doc);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        IndexSearcher searcher;
        try {
            searcher = new IndexSearcher(DirectoryReader.open(dir));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        searcher.setSimilarity(bm25);
        float[][] vectors = null;
        if (embeddings != null) {
            log.accept("eval: raw reference: embedding " + ids.size() + " documents, one vector each (cached after "
                    + "the first time)");
            vectors = new float[ids.size()][];
            for (int from = 0; from < ids.size(); from += 256) {
                List<String> texts = new ArrayList<>();
                for (int i = from; i < Math.min(ids.size(), from + 256); i++) {
                    texts.add(text(ds.corpus().get(ids.get(i))));
                }
                List<float[]> got = embeddings.passages(texts);
                for (int i = 0; i < got.size(); i++) {
                    vectors[from + i] = unit(got.get(i));
                }
            }
        }
        return new RawReference(searcher, ids, vectors, embeddings);
    }

    private static String text(BeirDataset.Doc d) {
        return d.title().isBlank() ? d.text() : d.title() + "\n" + d.text();
    }

    /** The documents of one run for one query, best first, at most {@value #DEPTH}. */
    List<String> run(Kind kind, String query) {
        return scored(kind, query).stream().map(Scored::id).toList();
    }

    /** The documents of one run for one query with the run's scores, best first, at most {@value #DEPTH}. */
    List<Scored> scored(Kind kind, String query) {
        return switch (kind) {
            case BM25 -> bm25Scored(query);
            case VECTOR -> denseScored(query);
            case RRF -> rrfScored(bm25(query), dense(query));
            case MINMAX -> minmaxScored(bm25Scored(query), denseScored(query));
        };
    }

    List<String> bm25(String query) {
        return bm25Scored(query).stream().map(Scored::id).toList();
    }

    List<String> dense(String query) {
        return denseScored(query).stream().map(Scored::id).toList();
    }

    /**
     * Min-max fusion of two scored lists with equal weights: each list's scores mapped to [0, 1] over its entries (a
     * document absent from a list gets 0 from it; a list whose scores are all equal gives each 1), then added.
     */
    static List<String> minmax(List<Scored> a, List<Scored> b) {
        return minmaxScored(a, b).stream().map(Scored::id).toList();
    }

    private static List<Scored> minmaxScored(List<Scored> a, List<Scored> b) {
        Map<String, Double> score = new HashMap<>();
        for (List<Scored> list : List.of(a, b)) {
            double min = list.stream().mapToDouble(Scored::score).min().orElse(0);
            double max = list.stream().mapToDouble(Scored::score).max().orElse(0);
            for (Scored s : list) {
                score.merge(s.id(), max > min ? 0.5 * (s.score() - min) / (max - min) : 0.5, Double::sum);
            }
        }
        return ranked(score);
    }

    List<Scored> bm25Scored(String query) {
        BooleanQuery.Builder q = new BooleanQuery.Builder();
        int clauses = 0;
        try (TokenStream ts = analyzer.tokenStream("text", query)) {
            CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
            ts.reset();
            while (ts.incrementToken() && clauses < IndexSearcher.getMaxClauseCount()) {
                q.add(new TermQuery(new Term("text", term.toString())), BooleanClause.Occur.SHOULD);
                clauses++;
            }
            ts.end();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (clauses == 0) {
            return List.of();
        }
        try {
            List<Scored> out = new ArrayList<>();
            var stored = searcher.storedFields();
            for (ScoreDoc sd : searcher.search(q.build(), DEPTH).scoreDocs) {
                out.add(new Scored(stored.document(sd.doc).get("id"), sd.score));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    List<Scored> denseScored(String query) {
        float[] q = unit(embeddings.query(query));
        PriorityQueue<int[]> heap = new PriorityQueue<>(DEPTH + 1, (a, b) -> Float.compare(Float.intBitsToFloat(a[1]),
                Float.intBitsToFloat(b[1])));
        for (int i = 0; i < vectors.length; i++) {
            float dot = 0;
            float[] v = vectors[i];
            for (int j = 0; j < v.length; j++) {
                dot += v[j] * q[j];
            }
            heap.add(new int[] {i, Float.floatToIntBits(dot)});
            if (heap.size() > DEPTH) {
                heap.poll();
            }
        }
        List<int[]> best = new ArrayList<>(heap);
        best.sort((a, b) -> Float.compare(Float.intBitsToFloat(b[1]), Float.intBitsToFloat(a[1])));
        List<Scored> out = new ArrayList<>(best.size());
        best.forEach(e -> out.add(new Scored(ids.get(e[0]), Float.intBitsToFloat(e[1]))));
        return out;
    }

    /** Reciprocal rank fusion of two document lists: the sum over lists of 1 / (k + rank). */
    static List<String> rrf(List<String> a, List<String> b) {
        return rrfScored(a, b).stream().map(Scored::id).toList();
    }

    private static List<Scored> rrfScored(List<String> a, List<String> b) {
        Map<String, Double> score = new HashMap<>();
        for (List<String> list : List.of(a, b)) {
            for (int r = 0; r < list.size(); r++) {
                score.merge(list.get(r), 1.0 / (RRF_K + r + 1), Double::sum);
            }
        }
        return ranked(score);
    }

    /** Scores as a list, best first; equal scores by id. */
    private static List<Scored> ranked(Map<String, Double> score) {
        List<Scored> out = new ArrayList<>(score.size());
        score.forEach((id, v) -> out.add(new Scored(id, v)));
        out.sort((x, y) -> {
            int c = Double.compare(y.score(), x.score());
            return c != 0 ? c : x.id().compareTo(y.id());
        });
        return out;
    }

    private static float[] unit(float[] v) {
        double n = 0;
        for (float x : v) {
            n += x * x;
        }
        float inv = n == 0 ? 0 : (float) (1 / Math.sqrt(n));
        float[] out = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = v[i] * inv;
        }
        return out;
    }
}
