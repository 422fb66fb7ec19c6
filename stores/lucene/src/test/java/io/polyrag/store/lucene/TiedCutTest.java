package io.polyrag.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cut of a search whose equal scores straddle it, against the sort it replaces (by score, then chunk id), over a
 * many-segment index full of ties: the same hits, whatever the segments and the order the records were written in.
 */
class TiedCutTest {
    @TempDir
    Path dir;

    private static final String[] WORDS = {"ash", "plume", "vent", "lava", "crater", "magma", "tremor", "basalt"};

    @Test
    void keeps_the_hits_a_sort_by_score_then_chunk_id_keeps() throws Exception {
        Random random = new Random(7);
        try (FSDirectory directory = FSDirectory.open(dir)) {
            // No merges: the tied hits stay spread over a dozen segments, each written in a shuffled order.
            IndexWriterConfig config = new IndexWriterConfig(new EnglishAnalyzer()).setMergePolicy(NoMergePolicy.INSTANCE);
            try (IndexWriter w = new IndexWriter(directory, config)) {
                List<Integer> order = new ArrayList<>();
                for (int i = 0; i < 1_200; i++) {
                    order.add(i);
                }
                java.util.Collections.shuffle(order, random);
                for (int n = 0; n < order.size(); n++) {
                    int i = order.get(n);
                    // Few distinct texts of few lengths: scores tie by the hundred.
                    StringBuilder text = new StringBuilder();
                    for (int k = 0; k < 2 + i % 3; k++) {
                        text.append(WORDS[(i * 7 + k * 3) % WORDS.length]).append(' ');
                    }
                    String id = "c" + Integer.toString(i * 7919 % 1_201, 36);
                    Document d = new Document();
                    d.add(new StringField(LuceneIndex.CHUNK_ID, id, Field.Store.YES));
                    d.add(new SortedDocValuesField(LuceneIndex.CHUNK_ID, new BytesRef(id)));
                    d.add(new TextField(LuceneFullTextStore.BODY, text.toString(), Field.Store.NO));
                    w.addDocument(d);
                    if (n % 100 == 99) {
                        w.commit();
                    }
                }
            }
            try (DirectoryReader reader = DirectoryReader.open(directory)) {
                assertThat(reader.leaves()).hasSizeGreaterThan(10);
                IndexSearcher s = new IndexSearcher(reader);
                Sort byScoreThenId = new Sort(SortField.FIELD_SCORE, new SortField(LuceneIndex.CHUNK_ID,
                        SortField.Type.STRING));
                int tiedCuts = 0;
                for (int q = 0; q < 60; q++) {
                    BooleanQuery.Builder b = new BooleanQuery.Builder();
                    for (int k = 0; k < 1 + q % 3; k++) {
                        b.add(new TermQuery(new Term(LuceneFullTextStore.BODY, WORDS[(q + k * 5) % WORDS.length])),
                                BooleanClause.Occur.SHOULD);
                    }
                    Query query = b.build();
                    for (int limit : new int[] {1, 7, 50, 200}) {
                        ScoreDoc[] first = s.search(query, limit + 1).scoreDocs;
                        if (first.length > limit && first[limit].score == first[limit - 1].score) {
                            tiedCuts++;
                        }
                        assertThat(ids(s, LuceneFullTextStore.top(s, query, limit)))
                                .as("query %s, top %d", query, limit)
                                .containsExactlyInAnyOrderElementsOf(ids(s, s.search(query, limit, byScoreThenId,
                                        true).scoreDocs));
                    }
                }
                assertThat(tiedCuts).as("cuts through tied scores among the searches").isGreaterThan(100);
            }
        }
    }

    private static List<String> ids(IndexSearcher s, ScoreDoc[] docs) throws Exception {
        var stored = s.storedFields();
        return Arrays.stream(docs).map(d -> {
            try {
                return stored.document(d.doc).get(LuceneIndex.CHUNK_ID);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }).toList();
    }
}
